import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateEnv } from '../../app.env.js';
import { problemsOf } from '../../../test/support/env-problems.js';
import { DEFAULT_CREDENTIAL_QUERY } from './dcql.js';
import { generateTestAuthority } from './test-authorities.js';

// The wallet verifier's fragment (eudi.env.ts) through the start's validation of the whole environment.

describe('EUDI Wallet configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eudi-env-'));
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  let files: Record<string, string>;
  beforeAll(async () => {
    const authority = await generateTestAuthority('Env test', new Date(), 'gw.example');
    files = {
      cert: file('cert.pem', authority.leaf.certificatePem + authority.ca.certificatePem),
      key: file('key.pem', authority.leaf.privateKeyPem),
      anchors: file('anchors.pem', authority.ca.certificatePem),
      notPem: file('not.pem', 'hello'),
      query: file('query.json', JSON.stringify(DEFAULT_CREDENTIAL_QUERY)),
      badQuery: file('bad.json', JSON.stringify({ credentials: [{ ...DEFAULT_CREDENTIAL_QUERY.credentials[0], format: 'mso_mdoc' }] })),
      rsa: file(
        'rsa.pem',
        generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      ),
    };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [() => ({ EUDI_VERIFIER_CERT: files.cert }), 'EUDI_VERIFIER_KEY'],
    [() => ({ EUDI_VERIFIER_KEY: files.key }), 'EUDI_VERIFIER_CERT'],
    [() => ({ EUDI_TRUST_ANCHORS: files.notPem }), 'EUDI_TRUST_ANCHORS'],
    [() => ({ EUDI_TEST_TRUST_ANCHORS: join(dir, 'missing.pem') }), 'EUDI_TEST_TRUST_ANCHORS'],
    [() => ({ EUDI_VERIFIER_KEY: files.notPem, EUDI_VERIFIER_CERT: files.cert }), 'EUDI_VERIFIER_KEY'],
    [() => ({ EUDI_CREDENTIALS: files.badQuery }), 'EUDI_CREDENTIALS'],
    [() => ({ NODE_ENV: 'production', PROVIDERS: 'eudi', EUDI_TRUST_ANCHORS: files.anchors }), 'EUDI_VERIFIER_CERT'],
    [
      () => ({ NODE_ENV: 'production', PROVIDERS: 'openid4vp', EUDI_VERIFIER_CERT: files.cert, EUDI_VERIFIER_KEY: files.key }),
      'EUDI_TRUST_ANCHORS',
    ],
  ])('should refuse a bad or missing file, naming the variable (case %#)', (env, variable) => {
    const problems = problemsOf(env());
    expect(problems.some((p) => p.startsWith(`${variable} `))).toBe(true);
    // The report names files' problems, never their content.
    expect(problems.join(' ')).not.toContain('BEGIN');
  });

  it('should read the access certificate chain, its key, the anchors and the credential query', () => {
    const env = validateEnv({
      PROVIDERS: 'eudi',
      EUDI_VERIFIER_CERT: files.cert,
      EUDI_VERIFIER_KEY: files.key,
      EUDI_TRUST_ANCHORS: files.anchors,
      EUDI_CREDENTIALS: files.query,
    });
    expect(env.EUDI_VERIFIER_CERT).toHaveLength(2);
    expect(env.EUDI_VERIFIER_KEY?.asymmetricKeyType).toBe('ec');
    expect(env.EUDI_TRUST_ANCHORS).toHaveLength(1);
    expect(env.EUDI_TEST_TRUST_ANCHORS).toEqual([]);
    expect(env.EUDI_CREDENTIALS).toEqual(DEFAULT_CREDENTIAL_QUERY);
  });
});
