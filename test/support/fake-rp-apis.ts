// The fakes of the e-ID providers' RP APIs, for a whole test file (docs/architecture.md, "Tests"):
//
//   const bankId = useBankIdFake({ now: () => e2e.clock.now() });
//   const e2e = useE2eApp({ env: () => ({ PROVIDERS: 'bankid', ...bankId.env() }), withKey: true });
//   it('should …', async () => { bankId.fake.approve(orderRef); });
//
// Call it before useE2eApp, so the fake listens when the app boots. Its afterAll then runs before the
// app's: harmless, as the service calls a provider only while it serves a request or runs a job.
import { FakeBankIdServer } from '../fakes/bankid-rp-fake.js';
import { createTestPki, type TestPki, type TestPkiOptions } from '../fakes/test-certificates.js';
import type { TestEnv } from './e2e.js';

/** What a fake RP API serves mutual TLS with: the PKI's server certificate, trusting RP "Fake RP" of its RP CA. */
export interface FakeRpApiTls {
  key: string;
  cert: string;
  clientCa: string;
  authorizedClients: string[];
}

export interface FakeRpApi<Fake> {
  readonly fake: Fake;
  readonly pki: TestPki;
}

/** Registers beforeAll / afterAll for a throwaway PKI and the fake that `start` starts on it. */
export function useFakeRpApi<Fake extends { close(): Promise<void> }>(options: {
  pki?: TestPkiOptions;
  start: (tls: FakeRpApiTls, pki: TestPki) => Promise<Fake>;
}): FakeRpApi<Fake> {
  let state: { pki: TestPki; fake?: Fake } | undefined;
  beforeAll(async () => {
    const pki = await createTestPki(options.pki);
    state = { pki };
    const tls = { key: pki.server.key, cert: pki.server.cert, clientCa: pki.rpCa, authorizedClients: ['Fake RP'] };
    state.fake = await options.start(tls, pki);
  });
  afterAll(async () => {
    await state?.fake?.close();
    await state?.pki.remove();
  });
  const current = () => {
    if (!state?.fake) throw new Error('useFakeRpApi: read the fake inside a test or hook, after its beforeAll');
    return { pki: state.pki, fake: state.fake };
  };
  return {
    get fake() {
      return current().fake;
    },
    get pki() {
      return current().pki;
    },
  };
}

export interface BankIdFake extends FakeRpApi<FakeBankIdServer> {
  /** The variables that point one environment of the service's BankID at the fake, with the RP certificate it knows. */
  env(environment?: 'test' | 'live'): TestEnv;
}

/** The fake BankID RP API v6.0 (test/fakes/bankid-rp-fake.ts) on its own PKI, for the whole file. */
export function useBankIdFake(options: { now: () => Date; pki?: TestPkiOptions }): BankIdFake {
  const api = useFakeRpApi({ pki: options.pki, start: (tls) => FakeBankIdServer.start({ ...tls, now: options.now }) });
  return Object.assign(api, {
    env: (environment: 'test' | 'live' = 'test'): TestEnv => ({
      [environment === 'live' ? 'BANKID_URL' : 'BANKID_TEST_URL']: api.fake.url,
      [environment === 'live' ? 'BANKID_IDCARD_URL' : 'BANKID_TEST_IDCARD_URL']: api.fake.idCardUrl,
      BANKID_CERT: api.pki.client.certPath,
      BANKID_KEY: api.pki.client.keyPath,
      BANKID_CA: api.pki.bankIdCaPath,
    }),
  });
}
