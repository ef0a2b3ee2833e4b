import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { problemsOf } from '../../test/support/env-problems.js';

// The SAML front's signing key (saml.env.ts) through the start's validation of the whole environment.

describe('SAML front signing key configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eid-saml-env-'));
  const pair = (name: string, curve: string) => {
    const key = join(dir, `${name}.key`);
    const cert = join(dir, `${name}.crt`);
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', `ec_paramgen_curve:${curve}`, '-nodes', '-sha256', '-days', '1',
      '-subj', `/CN=${name}`, '-keyout', key, '-out', cert,
    ], { stdio: 'ignore' }); // prettier-ignore
    return { SAML_SIGNING_KEY: key, SAML_SIGNING_CERT: cert };
  };
  const p256 = pair('p256', 'P-256');
  const other = pair('other', 'P-256');
  const p384 = pair('p384', 'P-384');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const samlProblems = (env: NodeJS.ProcessEnv) => problemsOf(env).filter((problem) => problem.startsWith('SAML_SIGNING_'));

  it('should take an EC P-256 key with its certificate', () => {
    expect(samlProblems(p256)).toEqual([]);
  });

  it('should refuse an EC key on another curve, naming the variable and not the key', () => {
    expect(samlProblems(p384)).toEqual(['SAML_SIGNING_KEY must be an RSA or an EC P-256 private key']);
  });

  it('should refuse a certificate of another key', () => {
    expect(samlProblems({ ...p256, SAML_SIGNING_CERT: other.SAML_SIGNING_CERT })).toEqual([
      'SAML_SIGNING_CERT does not match SAML_SIGNING_KEY',
    ]);
  });
});
