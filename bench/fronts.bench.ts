// CPU per answer of the newer fronts, each beside its baseline in the same run (docs/performance.md):
// a SAML login's Response signed and encrypted by our IdP code against xml-crypto signing the same
// assertion bare, and a wallet presentation verified by our verifier against @sd-jwt/sd-jwt-vc verifying
// it bare. In-process, no sockets; rounds interleave the paths, medians reported.
// Run: npm run bench:fronts (builds first). N=n answers per path and round.
import 'reflect-metadata';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { digest, ES256, generateSalt } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { SignedXml } from 'xml-crypto';
import { PID_VCT } from '../src/eid-providers/eudi/dcql.js';
import { verifyPresentation } from '../src/eid-providers/eudi/sd-jwt-vc-verifier.js';
import { StatusListCheck } from '../src/eid-providers/eudi/status-list.js';
import type { StatusListFetcher } from '../src/eid-providers/eudi/status-list-fetcher.js';
import { generateTestAuthority } from '../src/eid-providers/eudi/test-authorities.js';
import { toPkijs } from '../src/eid-providers/eudi/x5c-chain.js';
import { releasedAttributes } from '../src/saml/response/saml-attributes.js';
import { successResponse, type SuccessInput } from '../src/saml/response/saml-response.js';
import { BINDING } from '../src/saml/saml-protocol.js';
import { samlify } from '../src/saml/samlify.js';
import { SAML_ATTRIBUTE_NAMES, type SamlServiceProvider } from '../src/saml/service-providers/saml-service-provider.js';
import { createSamlPki, decodeBase64 } from '../test/support/saml-sp.js';
import { printSection } from './lib/report.js';

const N = Number(process.env.N ?? 40);
const ROUNDS = 5;
const IDP = 'https://idp.bench.example/saml';
const PERSON = { personalNumber: '199001012393', name: 'Test Testsson', givenName: 'Test', surname: 'Testsson' };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface Path {
  name: string;
  run: () => unknown;
}

interface Front {
  title: string;
  /** The first path is the baseline the others are compared with. */
  paths: Path[];
}

/** A login's Response as the front builds it, for an SP with (or without) an encryption certificate. */
async function samlFront(): Promise<Front> {
  const pki = await createSamlPki();
  await pki.remove();
  const key = { privateKey: pki.idp.key, certificate: pki.idp.cert };
  const sp = (encryptionCertificate: string | null): SamlServiceProvider => ({
    id: '00000000-0000-4000-8000-000000000001',
    teamId: '00000000-0000-4000-8000-000000000002',
    environment: 'live',
    name: 'Bench SP',
    entityId: 'https://sp.bench.example/saml',
    acsUrls: ['https://sp.bench.example/saml/acs'],
    singleLogoutUrl: null,
    signingCertificate: pki.sp.cert,
    encryptionCertificate,
    providers: null,
    attributes: [...SAML_ATTRIBUTE_NAMES],
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  const idp = (encryptAssertions: boolean) =>
    samlify().IdentityProvider({
      entityID: IDP,
      signingCert: key.certificate,
      privateKey: key.privateKey,
      requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      isAssertionEncrypted: encryptAssertions,
      dataEncryptionAlgorithm: 'http://www.w3.org/2009/xmlenc11#aes256-gcm',
      keyEncryptionAlgorithm: 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p',
      wantAuthnRequestsSigned: true,
      singleSignOnService: [{ Binding: BINDING.post, Location: `${IDP}/sso` }],
      singleLogoutService: [{ Binding: BINDING.post, Location: `${IDP}/slo` }],
    });
  // As the login service does, the IdP entity is built for each Response.
  const input = (encrypted: boolean): SuccessInput => ({
    issuer: IDP,
    key,
    idp: idp(encrypted),
    now: new Date(),
    sp: sp(encrypted ? pki.spEncryption.cert : null),
    inResponseTo: '_bench-request',
    acsUrl: 'https://sp.bench.example/saml/acs',
    nameId: 'a3f5c1e0b2d94e8f',
    authnContext: 'http://id.elegnamnden.se/loa/1.0/loa3',
    authnInstant: new Date(),
    attributes: releasedAttributes(
      { user: PERSON, sessionId: '00000000-0000-4000-8000-000000000003', operation: 'auth' },
      SAML_ATTRIBUTE_NAMES,
    ),
  });
  const [signedOnly, encrypted] = [input(false), input(true)];
  // The same assertion bare: taken from a signed-only Response, its signature removed.
  const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/
    .exec(decodeBase64(await successResponse(signedOnly)))![0]
    .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '');
  // The encrypted path must measure an encrypted assertion (the SP's certificate is what asks for it).
  if (!decodeBase64(await successResponse({ ...encrypted, idp: idp(true) })).includes('EncryptedAssertion>')) {
    throw new Error('The Response to an SP with an encryption certificate carries no EncryptedAssertion');
  }
  const bare = () => {
    const signed = new SignedXml({
      privateKey: key.privateKey,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    });
    signed.addReference({
      xpath: '/*',
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    signed.computeSignature(assertion);
    return signed.getSignedXml();
  };
  return {
    title: `SAML: a login's Response (${signedOnly.attributes.length} attributes, RSA-2048 keys)`,
    paths: [
      { name: 'baseline: xml-crypto signs the same assertion bare', run: bare },
      {
        name: 'ours: assertion signed, Response signed (SP without encryption certificate)',
        run: () => successResponse({ ...signedOnly, idp: idp(false) }),
      },
      { name: '**ours: assertion signed and encrypted, Response signed**', run: () => successResponse({ ...encrypted, idp: idp(true) }) },
    ],
  };
}

/** A PID presentation as the simulator wallet makes one, verified whole by ours and bare by the library. */
async function walletFront(): Promise<Front> {
  const now = new Date();
  const issuer = await generateTestAuthority('Bench PID issuer', now);
  const device = await generateKeyPair('ES256', { extractable: true });
  const issuerJwk = createPrivateKey(issuer.leaf.privateKeyPem).export({ format: 'jwk' });
  const sdjwt = new SDJwtVcInstance({
    hasher: digest,
    hashAlg: 'sha-256',
    saltGenerator: generateSalt,
    signAlg: ES256.alg,
    signer: await ES256.getSigner(issuerJwk),
    kbSignAlg: ES256.alg,
    kbSigner: await ES256.getSigner(await exportJWK(device.privateKey)),
  });
  const pid = { given_name: 'Tess', family_name: 'Testsson', birthdate: '1990-01-01', personal_administrative_number: '199001011239' };
  const seconds = Math.floor(now.getTime() / 1000);
  const credential = await sdjwt.issue(
    {
      iss: 'https://issuer.bench.example',
      vct: PID_VCT,
      iat: seconds,
      exp: seconds + 86_400,
      cnf: { jwk: await exportJWK(device.publicKey) },
      ...pid,
    },
    { _sd: Object.keys(pid) as (keyof typeof pid)[] },
    { header: { x5c: [new X509Certificate(issuer.leaf.certificatePem).raw.toString('base64')] } },
  );
  const expected = {
    vctValues: [PID_VCT],
    clientId: 'x509_san_dns:verifier.bench.example',
    nonce: 'bench-nonce',
    anchors: [toPkijs(new X509Certificate(issuer.ca.certificatePem))],
    now,
  };
  const presentation = await sdjwt.present(credential, Object.fromEntries(Object.keys(pid).map((claim) => [claim, true])), {
    kb: { payload: { aud: expected.clientId, nonce: expected.nonce, iat: seconds } },
  });
  // The credential names no status list: the check answers 'none' without fetching.
  const statusLists = new StatusListCheck(null as unknown as StatusListFetcher);
  const { d, ...issuerPublic } = issuerJwk;
  void d;
  const bare = new SDJwtVcInstance({
    hasher: digest,
    verifier: await ES256.getVerifier(issuerPublic),
    kbVerifier: async (data: string, signature: string, payload: Record<string, unknown>) =>
      (await ES256.getVerifier((payload.cnf as { jwk: JWK }).jwk))(data, signature),
  });
  return {
    title: `Wallet: an SD-JWT VC presentation (${Object.keys(pid).length} disclosures, key binding, ES256)`,
    paths: [
      {
        name: 'baseline: @sd-jwt/sd-jwt-vc verifies it bare (signatures, disclosures, key binding)',
        run: () => bare.verify(presentation, { keyBindingNonce: expected.nonce }),
      },
      {
        name: '**ours: verifyPresentation (also the x5c chain to the anchors, the checks of docs/eudi-wallet.md)**',
        run: () => verifyPresentation(presentation, expected, statusLists),
      },
    ],
  };
}

async function measure(path: Path, count: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) await path.run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / count;
}

async function main(): Promise<void> {
  const fronts = [await samlFront(), await walletFront()];
  const paths = fronts.flatMap((front) => front.paths);
  for (const path of paths) await measure(path, 5);
  const samples = new Map<Path, number[]>(paths.map((p) => [p, []]));
  // Rounds interleave the paths, so a noisy neighbour on the machine hurts them all alike.
  for (let round = 0; round < ROUNDS; round++) for (const path of paths) samples.get(path)!.push(await measure(path, N));
  const lines = [`${N} answers x ${ROUNDS} interleaved rounds per path, median CPU per answer, in-process (Node ${process.version}).`];
  for (const front of fronts) {
    const cost = front.paths.map((p) => median(samples.get(p)!));
    lines.push(
      '',
      `${front.title}:`,
      '',
      '| path | CPU ms | baseline / path |',
      '|---|---:|---:|',
      ...front.paths.map((p, i) => `| ${p.name} | ${cost[i].toFixed(3)} | ${(cost[0] / cost[i]).toFixed(2)} |`),
    );
  }
  await printSection('SAML and wallet fronts', lines);
}

await main();
