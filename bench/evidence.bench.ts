// CPU per completion of the evidence work (docs/evidence.md): the simulator signing a completion, and
// the service verifying it part by part, against one RSA-2048 signature check and one result token
// (ES256 JWS) measured in the same run. Run: npm run bench:evidence (builds first). N=n completions per round.
import 'reflect-metadata';
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { PemConverter } from '@peculiar/x509';
import { generateKeyPair, SignJWT } from 'jose';
import * as pkijs from 'pkijs';
import { SystemClock } from '../src/common/clock/clock.js';
import { checkCertificateChain } from '../src/eid-providers/shared/xml-evidence/certificate-chain-check.js';
import { EvidenceAuthority, type IssuedEvidence } from '../src/eid-providers/shared/xml-evidence/evidence-authority.js';
import { EvidenceVerifier } from '../src/eid-providers/shared/xml-evidence/evidence-verifier.js';
import { checkOcspResponse } from '../src/eid-providers/shared/xml-evidence/ocsp-response-check.js';
import { checkXmlSignature } from '../src/eid-providers/shared/xml-evidence/xml-signature-check.js';
import { printSection } from './lib/report.js';

const N = Number(process.env.N ?? 40);
const ROUNDS = 5;
const USER = { personalNumber: '199001012393', name: 'Test Testsson', givenName: 'Test', surname: 'Testsson' };
const TEXT = Buffer.from('Sign the lease for Storgatan 1').toString('base64');

interface Path {
  name: string;
  run: (evidence: IssuedEvidence) => unknown;
}

async function main(): Promise<void> {
  const now = new Date();
  const { authority } = await EvidenceAuthority.generate('Bench CA', now);
  const verifier = new EvidenceVerifier(new SystemClock());
  const root = pkijs.Certificate.fromBER(PemConverter.decodeFirst(authority.certificatePem));
  const sample = await authority.issue({ user: USER, funcId: 'Signing', userVisibleData: TEXT, now });
  const signer = pkijs.Certificate.fromBER(checkXmlSignature(sample.signature).certificates[0]);
  const issuer = (await checkCertificateChain(signer, [], [root], now)).issuer!;
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const rsaSignature = sign('sha256', Buffer.from('x'), rsa.privateKey);
  const es256 = await generateKeyPair('ES256');

  const paths: Path[] = [
    {
      name: 'baseline: one RSA-2048 signature check (node:crypto)',
      run: () => verify('sha256', Buffer.from('x'), rsa.publicKey, rsaSignature),
    },
    {
      name: 'baseline: one ES256 JWS (a result token)',
      run: () => new SignJWT({ status: 'complete' }).setProtectedHeader({ alg: 'ES256' }).sign(es256.privateKey),
    },
    {
      name: 'simulator: sign a completion (certificate, XML signature, OCSP)',
      run: () => authority.issue({ user: USER, funcId: 'Signing', userVisibleData: TEXT, now }),
    },
    { name: 'verify: XML signature alone', run: (e) => checkXmlSignature(e.signature) },
    { name: 'verify: certificate chain alone', run: () => checkCertificateChain(signer, [], [root], now) },
    { name: 'verify: OCSP response alone', run: (e) => checkOcspResponse(Buffer.from(e.ocspResponse, 'base64'), signer, issuer, now) },
    {
      name: '**verify: every part (EvidenceVerifier)**',
      run: (e) =>
        verifier.verify({
          ...e,
          expected: { userVisibleData: TEXT },
          trustRoots: [authority.certificatePem],
          completion: { operation: 'sign', personalNumber: USER.personalNumber, at: now },
        }),
    },
  ];

  const measure = async (path: Path, count: number) => {
    const before = process.cpuUsage();
    for (let i = 0; i < count; i++) await path.run(sample);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / count;
  };
  for (const path of paths) await measure(path, 5);
  const samples = new Map<Path, number[]>(paths.map((p) => [p, []]));
  // Rounds interleave the paths, so a noisy neighbour on the machine hurts them all alike.
  for (let round = 0; round < ROUNDS; round++) for (const path of paths) samples.get(path)!.push(await measure(path, N));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const cost = paths.map((p) => median(samples.get(p)!));
  const [rsaMs, jwsMs] = cost;

  await printSection('Evidence per completion', [
    `Evidence per completion, ${N} x ${ROUNDS} rounds, median CPU (Node ${process.version}):`,
    '',
    '| path | CPU ms | x RSA check | x ES256 JWS |',
    '|---|---:|---:|---:|',
    ...paths.map((p, i) => `| ${p.name} | ${cost[i].toFixed(3)} | ${(cost[i] / rsaMs).toFixed(0)} | ${(cost[i] / jwsMs).toFixed(1)} |`),
    '',
    'Verification runs once per completion and its result is stored: it belongs off the poll request path.',
  ]);
}

await main();
