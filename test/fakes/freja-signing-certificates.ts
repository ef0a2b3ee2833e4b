import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface FrejaSigner {
  /** PEM of the signing certificate: what FREJA_TEST_JWS_CERTS points at. */
  certPath: string;
  cert: string;
  /** PKCS#8 PEM of the RSA key the fake signs `details` with. */
  key: string;
}

/** An RSA signing certificate like Freja's result signer (RS256), made with the openssl binary in `dir`. */
export async function createFrejaSigner(dir: string, name: string): Promise<FrejaSigner> {
  await run(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-days',
      '2',
      '-subj',
      `/O=Fake Freja eID/CN=${name}`,
    ],
    { cwd: dir },
  );
  return {
    certPath: join(dir, `${name}.pem`),
    cert: await readFile(join(dir, `${name}.pem`), 'utf8'),
    key: await readFile(join(dir, `${name}.key`), 'utf8'),
  };
}
