import { validateEnv } from '../../app.env.js';
import { problemsOf } from '../../../test/support/env-problems.js';

// BankID's fragment (bankid.env.ts) through the start's validation of the whole environment.

describe('BankID configuration', () => {
  it.each([
    [{ BANKID_CERT: '/c.pem' }, 'BANKID_CERT'],
    [{ BANKID_TEST_KEY: '/k.pem' }, 'BANKID_TEST_CERT'],
    [{ BANKID_TEST_PFX: '/rp.p12', BANKID_TEST_CERT: '/c.pem', BANKID_TEST_KEY: '/k.pem' }, 'BANKID_TEST_PFX'],
    [{ PROVIDERS: 'bankid' }, 'BANKID_PFX'],
    [{ PROVIDERS: 'bankid', BANKID_PFX: '/rp.p12' }, 'BANKID_CA'],
    [{ PROVIDERS: 'bankid', BANKID_TEST_PFX: '/rp.p12' }, 'BANKID_TEST_CA'],
    [{ BANKID_TIMEOUT: 'soon' }, 'BANKID_TIMEOUT'],
    [{ BANKID_RETRY_SCHEDULE: '1s,later' }, 'BANKID_RETRY_SCHEDULE'],
    [{ NODE_ENV: 'production', BANKID_TEST_URL: 'http://127.0.0.1:8443/rp/v6.0' }, 'BANKID_TEST_URL'],
    [{ NODE_ENV: 'production', BANKID_URL: 'http://bankid.example/rp/v6.0' }, 'BANKID_URL'],
    [{ NODE_ENV: 'production', PROVIDERS: 'bankid', BANKID_PFX: '/rp.p12', BANKID_CA: '/ca.pem' }, 'BANKID_EVIDENCE_ROOTS'],
  ])('should refuse %j naming %s', (env, variable) => {
    expect(problemsOf(env).some((p) => p.startsWith(`${variable} `))).toBe(true);
  });

  it('should accept BankID with an RP certificate and its CA, and a plain-HTTP fake outside production', () => {
    const env = validateEnv({
      PROVIDERS: 'bankid',
      BANKID_PFX: '/rp.p12',
      BANKID_PASSPHRASE: 'x',
      BANKID_CA: '/ca.pem',
      BANKID_TEST_URL: 'http://127.0.0.1:8443/rp/v6.0',
    });
    expect(env).toMatchObject({ BANKID_TIMEOUT: 5_000, BANKID_RETRY_SCHEDULE: [250, 1_000] });
    expect(() =>
      validateEnv({
        PROVIDERS: 'bankid',
        BANKID_TEST_CERT: '/c.pem',
        BANKID_TEST_KEY: '/k.pem',
        BANKID_TEST_URL: 'http://127.0.0.1:1/rp/v6.0',
      }),
    ).not.toThrow();
  });

  it('should take the live evidence roots in production, and default them to the CA outside it', () => {
    const live = { PROVIDERS: 'bankid', BANKID_PFX: '/rp.p12', BANKID_CA: '/ca.pem' };
    const production = { NODE_ENV: 'production', DATA_ENCRYPTION_KEY: 'x', KIOSK_TOKEN_SECRET: 'y', DATABASE_URL: 'postgres://db/eid' };
    expect(problemsOf({ ...production, ...live, BANKID_EVIDENCE_ROOTS: '/roots.pem' }).filter((p) => p.startsWith('BANKID'))).toEqual([]);
    expect(problemsOf(live)).toEqual([]);
  });

  it('should let PROVIDERS name bankid', () => {
    expect(validateEnv({ PROVIDERS: 'simulator,bankid', BANKID_PFX: '/rp.p12', BANKID_CA: '/ca.pem' }).PROVIDERS).toEqual([
      'simulator',
      'bankid',
    ]);
  });
});
