import { validateEnv } from '../../app.env.js';
import { problemsOf } from '../../../test/support/env-problems.js';

// Freja's fragment (freja.env.ts) through the start's validation of the whole environment.

describe('Freja eID configuration', () => {
  it.each([
    [{ FREJA_CERT: '/c.pem' }, 'FREJA_CERT'],
    [{ FREJA_PFX: '/rp.p12', FREJA_KEY: '/k.pem' }, 'FREJA_PFX'],
    [{ PROVIDERS: 'freja', FREJA_TEST_JWS_CERTS: '/jws.pem' }, 'FREJA_PFX'],
    [{ PROVIDERS: 'freja', FREJA_PFX: '/rp.p12', FREJA_CA: '/ca.pem' }, 'FREJA_JWS_CERTS'],
    [{ PROVIDERS: 'freja', FREJA_PFX: '/rp.p12', FREJA_JWS_CERTS: '/jws.pem' }, 'FREJA_CA'],
    [{ PROVIDERS: 'freja', FREJA_TEST_PFX: '/rp.p12', FREJA_TEST_JWS_CERTS: '/jws.pem' }, 'FREJA_TEST_CA'],
    [{ PROVIDERS: 'freja', FREJA_TEST_PFX: '/rp.p12', FREJA_JWS_CERTS: '/jws.pem', FREJA_CA: '/ca.pem' }, 'FREJA_PFX'],
    [{ NODE_ENV: 'production', FREJA_TEST_URL: 'http://127.0.0.1:8443' }, 'FREJA_TEST_URL'],
  ])('should refuse %j naming %s', (env, variable) => {
    expect(problemsOf(env).some((p) => p.startsWith(`${variable} `))).toBe(true);
  });

  it('should accept Freja with an RP certificate, its CA and the result signing certificates', () => {
    const env = validateEnv({ PROVIDERS: 'freja', FREJA_PFX: '/rp.p12', FREJA_CA: '/ca.pem', FREJA_JWS_CERTS: '/jws.pem' });
    expect(env).toMatchObject({ PROVIDERS: ['freja'], FREJA_TIMEOUT: 5_000 });
  });
});
