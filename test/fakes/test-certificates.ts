import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The PKCS#12 passphrase of BankID's public test RP certificate, reused for the generated one. */
export const TEST_PASSPHRASE = 'qwerty123';

export interface IssuedCertificate {
  /** File paths, as an operator would configure them. */
  certPath: string;
  keyPath: string;
  /** PKCS#12 of key + certificate, encrypted with TEST_PASSPHRASE (OpenSSL 3 default: AES-256, as BankID's own). */
  pfxPath: string;
  cert: string;
  key: string;
}

export interface TestPki {
  dir: string;
  /** Signs the fake BankID server: what BANKID_CA pins. */
  bankIdCaPath: string;
  bankIdCa: string;
  /** The issuer of RP certificates, which the fake BankID trusts (a bank's RP CA). */
  rpCa: string;
  server: IssuedCertificate;
  /** An RP certificate the fake knows (CN "Fake RP"). */
  client: IssuedCertificate;
  /** Issued by the RP CA, but for an RP the fake has not given access (401 unauthorized). */
  unknownRp: IssuedCertificate;
  /** Self-issued: no BankID server accepts it in the handshake. */
  stranger: IssuedCertificate;
  /** A CA that did not sign the server: pinning it must make the client refuse the server. */
  otherCaPath: string;
  remove(): Promise<void>;
}

export interface TestPkiOptions {
  /** How long the RP certificate the fake knows is valid (default 365 days). */
  clientDays?: number;
  /** Whose server the CAs and the server certificate name (default BankID). */
  service?: 'BankID' | 'Freja eID';
}

/**
 * Throwaway certificates for one test file, made with the openssl binary (on every Debian with
 * ca-certificates): P-256 keys keep the whole set under a second, where pure-JS RSA takes seconds.
 */
export async function createTestPki(options: TestPkiOptions = {}): Promise<TestPki> {
  const service = options.service ?? 'BankID';
  const dir = await mkdtemp(join(tmpdir(), 'eid-pki-'));
  const path = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => run('openssl', args, { cwd: dir });

  const selfSigned = async (name: string, subject: string) => {
    await openssl(
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-days',
      '2',
      '-subj',
      subject,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
  };
  const issue = async (name: string, subject: string, ca: string, extensions: string, days: number): Promise<IssuedCertificate> => {
    await writeFile(path(`${name}.ext`), extensions);
    await openssl(
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      subject,
    );
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
      `0x${randomBytes(8).toString('hex')}`,
      '-days',
      String(days),
      '-sha256',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.pem`,
    );
    await openssl(
      'pkcs12',
      '-export',
      '-inkey',
      `${name}.key`,
      '-in',
      `${name}.pem`,
      '-out',
      `${name}.p12`,
      '-passout',
      `pass:${TEST_PASSPHRASE}`,
    );
    return {
      certPath: path(`${name}.pem`),
      keyPath: path(`${name}.key`),
      pfxPath: path(`${name}.p12`),
      cert: await readFile(path(`${name}.pem`), 'utf8'),
      key: await readFile(path(`${name}.key`), 'utf8'),
    };
  };
  const clientExtensions = 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n';

  await Promise.all([
    selfSigned('bankid-ca', `/O=Fake ${service}/CN=Fake ${service} Root CA`),
    selfSigned('rp-ca', `/O=Fake Bank/CN=Fake RP CA v1 for ${service} Test`),
    selfSigned('other-ca', '/CN=Some Other CA'),
    selfSigned('stranger-ca', '/CN=Stranger CA'),
  ]);
  const [server, client, unknownRp, stranger] = await Promise.all([
    issue(
      'server',
      service === 'BankID' ? '/CN=appapi2.test.bankid.fake' : '/CN=services.test.frejaeid.fake',
      'bankid-ca',
      'basicConstraints=CA:FALSE\nsubjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
      2,
    ),
    issue('client', '/O=Fake RP AB/CN=Fake RP', 'rp-ca', clientExtensions, options.clientDays ?? 365),
    issue('unknown-rp', '/CN=Unknown RP', 'rp-ca', clientExtensions, 365),
    issue('stranger', '/CN=Fake RP', 'stranger-ca', clientExtensions, 365),
  ]);
  return {
    dir,
    bankIdCaPath: path('bankid-ca.pem'),
    bankIdCa: await readFile(path('bankid-ca.pem'), 'utf8'),
    rpCa: await readFile(path('rp-ca.pem'), 'utf8'),
    server,
    client,
    unknownRp,
    stranger,
    otherCaPath: path('other-ca.pem'),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
