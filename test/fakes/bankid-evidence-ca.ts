import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SignedXml } from 'xml-crypto';

const run = promisify(execFile);

export interface EvidenceSubject {
  personalNumber: string;
  name: string;
  givenName: string;
  surname: string;
}

export interface SignedOrder {
  user: EvidenceSubject;
  funcId: 'Identification' | 'Signing';
  userVisibleData?: string;
  userNonVisibleData?: string;
  /** The signed data is changed after signing, so the XML signature no longer verifies. */
  brokenSignature?: boolean;
  /** Who signs (default `genuine`); the others are forgeries and misissues the verifier must refuse. */
  signer?: ForgedSigner | 'genuine';
}

/**
 * - `impostor-issuer`: a certificate from a self-made CA that copies the issuing CA's name, with the
 *   serial of a genuinely issued certificate, sent with that certificate's genuine OCSP response.
 * - `impostor-root`: the same from a self-made issuing CA under a self-made root that copies the real
 *   root's name, both carried in KeyInfo.
 * - `ca`: a certificate the issuing CA issued with CA:TRUE (no user certificate).
 * - `encipherment`: a certificate the issuing CA issued for keyEncipherment only (no signing key).
 */
export type ForgedSigner = 'impostor-issuer' | 'impostor-root' | 'ca' | 'encipherment';

const ISSUING_SUBJECT = '/O=Fake Bank AB/CN=Fake Bank Customer CA1 v1 for BankID Test';
const ROOT_SUBJECT = '/O=Fake BankID/CN=Fake BankID Evidence Root CA v1 Test';
const USER_EXTENSIONS: Record<'genuine' | ForgedSigner, string> = {
  genuine: 'basicConstraints=CA:FALSE\nkeyUsage=critical,nonRepudiation\n',
  'impostor-issuer': 'basicConstraints=CA:FALSE\nkeyUsage=critical,nonRepudiation\n',
  'impostor-root': 'basicConstraints=CA:FALSE\nkeyUsage=critical,nonRepudiation\n',
  ca: 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,nonRepudiation,keyCertSign\n',
  encipherment: 'basicConstraints=CA:FALSE\nkeyUsage=critical,keyEncipherment\n',
};

/**
 * The fake BankID's own PKI, made with the openssl binary and independent of the service's code:
 * root → issuing CA → one user certificate per completion, and a delegated OCSP responder (a
 * certificate with id-kp-OCSPSigning from the issuing CA) whose responses `openssl ocsp` writes, the
 * way BankID's issuing banks answer for their certificates. Signatures follow BankID's XML shape.
 */
export class FakeBankIdEvidenceCa {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly dir: string,
    readonly rootPem: string,
    private readonly userKeyPem: string,
    private readonly chainBase64: string[],
    private readonly impostorChainBase64: string[],
    private readonly verifier: { keyPem: string; certificateBase64: string },
  ) {}

  static async create(): Promise<FakeBankIdEvidenceCa> {
    const dir = await mkdtemp(join(tmpdir(), 'bankid-evidence-'));
    const openssl = (...args: string[]) => run('openssl', args, { cwd: dir });
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
    await openssl(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'root.key',
      '-out',
      'root.pem',
      '-days',
      '3650',
      '-subj',
      ROOT_SUBJECT,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    const issue = async (name: string, subject: string, ca: string, extensions: string) => {
      await writeFile(join(dir, `${name}.ext`), extensions);
      await openssl('req', '-new', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
      await openssl(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        `${ca}.pem`,
        '-CAkey',
        `${ca}.key`,
        '-set_serial',
        `0x${serial()}`,
        '-days',
        '3650',
        '-sha256',
        '-extfile',
        `${name}.ext`,
        '-out',
        `${name}.pem`,
      );
    };
    await issue('issuing', ISSUING_SUBJECT, 'root', 'basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n');
    await issue(
      'responder',
      '/O=Fake Bank AB/CN=Fake Bank OCSP Responder',
      'issuing',
      'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=OCSPSigning\n',
    );
    // BankID's user keys are RSA, and so is the XML signature algorithm.
    await openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'user.key');
    for (const [kind, extensions] of Object.entries(USER_EXTENSIONS)) await writeFile(join(dir, `user-${kind}.ext`), extensions);
    // The impostors: self-signed copies of the root's and the issuing CA's names, and an issuing CA under the fake root.
    const selfSigned = (name: string, subject: string) =>
      openssl(
        'req',
        '-x509',
        ...ec,
        '-keyout',
        `${name}.key`,
        '-out',
        `${name}.pem`,
        '-days',
        '3650',
        '-subj',
        subject,
        '-addext',
        'basicConstraints=critical,CA:TRUE',
        '-addext',
        'keyUsage=critical,keyCertSign,cRLSign',
      );
    await selfSigned('impostor-issuer', ISSUING_SUBJECT);
    await selfSigned('impostor-root', ROOT_SUBJECT);
    await issue(
      'impostor-root-issuing',
      ISSUING_SUBJECT,
      'impostor-root',
      'basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n',
    );
    // BankID's signer of ID card verifications: an RSA key (xml-crypto signs with RSA) under the issuing CA.
    await openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'verifier.key');
    await openssl(
      'req',
      '-new',
      '-key',
      'verifier.key',
      '-out',
      'verifier.csr',
      '-subj',
      '/O=Fake BankID/CN=Fake BankID ID Card Verification',
    );
    await writeFile(join(dir, 'verifier.ext'), 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n');
    await openssl(
      'x509',
      '-req',
      '-in',
      'verifier.csr',
      '-CA',
      'issuing.pem',
      '-CAkey',
      'issuing.key',
      '-set_serial',
      `0x${serial()}`,
      '-days',
      '3650',
      '-sha256',
      '-extfile',
      'verifier.ext',
      '-out',
      'verifier.pem',
    );
    await writeFile(join(dir, 'index.txt'), '');
    // One user has many certificates (one per completion), so subjects repeat in the index.
    await writeFile(join(dir, 'index.txt.attr'), 'unique_subject = no\n');
    const pem = (name: string) => readFile(join(dir, `${name}.pem`), 'utf8');
    const [rootPem, issuingPem, userKeyPem] = await Promise.all([pem('root'), pem('issuing'), readFile(join(dir, 'user.key'), 'utf8')]);
    const impostorChain = [derBase64(await pem('impostor-root-issuing')), derBase64(await pem('impostor-root'))];
    const verifier = { keyPem: await readFile(join(dir, 'verifier.key'), 'utf8'), certificateBase64: derBase64(await pem('verifier')) };
    return new FakeBankIdEvidenceCa(dir, rootPem, userKeyPem, [derBase64(issuingPem), derBase64(rootPem)], impostorChain, verifier);
  }

  /** completionData's `signature` and `ocspResponse` for one completed order. */
  evidence(order: SignedOrder): Promise<{ signature: string; ocspResponse: string }> {
    // One completion at a time: they share the responder's index file.
    const next = this.queue.then(() => this.issue(order));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * An ID card verification's `signature`: an enveloping XAdES Baseline B-B (ETSI TS 103 171) by the
   * fake's verification signer, over the verification id, the holder's personal number and the time.
   * `forged`: the personal number is changed after signing, so the signature no longer verifies.
   */
  idCardVerification(input: { verificationId: string; personalNumber: string; verifiedAt: string; forged?: boolean }): string {
    const ds = 'http://www.w3.org/2000/09/xmldsig#';
    const xades = 'http://uri.etsi.org/01903/v1.3.2#';
    const c14n = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
    const sha256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
    const certificate = this.verifier.certificateBase64;
    const certificateDigest = createHash('sha256').update(Buffer.from(certificate, 'base64')).digest('base64');
    const content =
      `<idCardVerification xmlns="urn:fake-bankid:idcard" Id="idCardVerification">` +
      `<verificationId>${input.verificationId}</verificationId><personalNumber>${input.personalNumber}</personalNumber>` +
      `<verifiedAt>${input.verifiedAt}</verifiedAt></idCardVerification>`;
    const properties =
      `<xades:QualifyingProperties xmlns:xades="${xades}" xmlns:ds="${ds}" Target="#idCardSignature">` +
      `<xades:SignedProperties Id="idCardSignedProperties"><xades:SignedSignatureProperties>` +
      `<xades:SigningTime>${input.verifiedAt}</xades:SigningTime><xades:SigningCertificateV2><xades:Cert><xades:CertDigest>` +
      `<ds:DigestMethod Algorithm="${sha256}"/><ds:DigestValue>${certificateDigest}</ds:DigestValue>` +
      `</xades:CertDigest></xades:Cert></xades:SigningCertificateV2></xades:SignedSignatureProperties></xades:SignedProperties>` +
      `</xades:QualifyingProperties>`;
    const signer = new SignedXml({
      privateKey: this.verifier.keyPem,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: c14n,
      getKeyInfoContent: () =>
        `<X509Data>${[certificate, ...this.chainBase64].map((c) => `<X509Certificate>${c}</X509Certificate>`).join('')}</X509Data>`,
      objects: [{ content }, { content: properties }],
    });
    signer.addReference({ xpath: "//*[@Id='idCardVerification']", transforms: [c14n], digestAlgorithm: sha256 });
    signer.addReference({
      xpath: "//*[@Id='idCardSignedProperties']",
      transforms: [c14n],
      digestAlgorithm: sha256,
      type: 'http://uri.etsi.org/01903#SignedProperties',
    });
    signer.computeSignature('<Unsigned/>', { attrs: { Id: 'idCardSignature' } });
    let xml = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>${signer.getSignatureXml()}`;
    if (input.forged) xml = xml.replace(`<personalNumber>${input.personalNumber}`, '<personalNumber>191212121212');
    return Buffer.from(xml).toString('base64');
  }

  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }

  private async issue(order: SignedOrder): Promise<{ signature: string; ocspResponse: string }> {
    const openssl = (...args: string[]) => run('openssl', args, { cwd: this.dir });
    const id = serial();
    const { user } = order;
    await openssl(
      'req',
      '-new',
      '-key',
      'user.key',
      '-out',
      `${id}.csr`,
      '-subj',
      `/C=SE/serialNumber=${user.personalNumber}/GN=${user.givenName}/SN=${user.surname}/CN=${user.name}`,
    );
    const kind = order.signer ?? 'genuine';
    const signUserCertificate = (ca: string, out: string) =>
      openssl(
        'x509',
        '-req',
        '-in',
        `${id}.csr`,
        '-CA',
        `${ca}.pem`,
        '-CAkey',
        `${ca}.key`,
        '-set_serial',
        `0x${id}`,
        '-days',
        '365',
        '-sha256',
        '-extfile',
        `user-${kind}.ext`,
        '-out',
        out,
      );
    // The genuine certificate is always issued: the impostors copy its serial and send its OCSP response.
    await signUserCertificate('issuing', `${id}.pem`);
    if (kind === 'impostor-issuer') await signUserCertificate('impostor-issuer', `${id}-forged.pem`);
    if (kind === 'impostor-root') await signUserCertificate('impostor-root-issuing', `${id}-forged.pem`);
    // openssl ocsp's CA database: status V(alid), expiry, no revocation date, serial, file, subject.
    await appendFile(join(this.dir, 'index.txt'), `V\t491231235959Z\t\t${id.toUpperCase()}\tunknown\t/CN=${user.personalNumber}\n`);
    await openssl('ocsp', '-issuer', 'issuing.pem', '-cert', `${id}.pem`, '-no_nonce', '-reqout', `${id}.req`);
    await openssl(
      'ocsp',
      '-index',
      'index.txt',
      '-rsigner',
      'responder.pem',
      '-rkey',
      'responder.key',
      '-CA',
      'issuing.pem',
      '-reqin',
      `${id}.req`,
      '-respout',
      `${id}.resp`,
      '-nmin',
      '5',
    );
    const forged = kind === 'impostor-issuer' || kind === 'impostor-root';
    const userCertificate = derBase64(await readFile(join(this.dir, forged ? `${id}-forged.pem` : `${id}.pem`), 'utf8'));
    let xml = this.sign(order, [userCertificate, ...(kind === 'impostor-root' ? this.impostorChainBase64 : this.chainBase64)]);
    if (order.brokenSignature) xml = xml.replace('<funcId>', '<funcId>Not');
    return {
      signature: Buffer.from(xml).toString('base64'),
      ocspResponse: (await readFile(join(this.dir, `${id}.resp`))).toString('base64'),
    };
  }

  private sign(order: SignedOrder, certificates: string[]): string {
    const ns = 'http://www.bankid.com/signature/v1.0.0/types';
    const signedData =
      `<bankIdSignedData xmlns="${ns}" Id="bidSignedData">` +
      (order.userVisibleData === undefined
        ? ''
        : `<usrVisibleData charset="UTF-8" visible="wysiwys">${order.userVisibleData}</usrVisibleData>`) +
      (order.userNonVisibleData === undefined ? '' : `<usrNonVisibleData>${order.userNonVisibleData}</usrNonVisibleData>`) +
      `<srvInfo><name>${Buffer.from('cn=Fake RP').toString('base64')}</name><nonce>${randomBytes(20).toString('base64')}</nonce></srvInfo>` +
      `<clientInfo><funcId>${order.funcId}</funcId><version>${Buffer.from('Personal=7.0.0').toString('base64')}</version></clientInfo>` +
      `</bankIdSignedData>`;
    const c14n = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
    const sha256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
    const signer = new SignedXml({
      privateKey: this.userKeyPem,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: c14n,
      keyInfoAttributes: { Id: 'bidKeyInfo' },
      getKeyInfoContent: () => `<X509Data>${certificates.map((c) => `<X509Certificate>${c}</X509Certificate>`).join('')}</X509Data>`,
      objects: [{ content: signedData }],
    });
    signer.addReference({ xpath: "//*[@Id='bidSignedData']", transforms: [c14n], digestAlgorithm: sha256, type: ns });
    signer.addReference({ xpath: "//*[@Id='bidKeyInfo']", transforms: [c14n], digestAlgorithm: sha256 });
    signer.computeSignature('<Order/>');
    return `<?xml version="1.0" encoding="UTF-8" standalone="no"?>${signer.getSignatureXml()}`;
  }
}

const serial = () => {
  const bytes = randomBytes(8);
  bytes[0] = (bytes[0] & 0x7f) | 0x10;
  return bytes.toString('hex');
};

const derBase64 = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
