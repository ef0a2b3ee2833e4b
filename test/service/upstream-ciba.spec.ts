import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { ValidationProblemException } from '../../src/common/problem-details/validation-problem.exception.js';
import { DataCipher } from '../../src/common/crypto/data-cipher.js';
import { SLOW_DOWN_HINT } from '../../src/eid-providers/eid-provider.js';
import { UpstreamConnections } from '../../src/eid-providers/upstream-oidc/upstream-connections.js';
import type { UpstreamConfig } from '../../src/eid-providers/upstream-oidc/upstream-oidc.env.js';
import { UpstreamOidcProvider } from '../../src/eid-providers/upstream-oidc/upstream-oidc.provider.js';
import type { UpstreamOrder } from '../../src/eid-providers/upstream-oidc/upstream-order.entity.js';
import type { UpstreamOrderStore } from '../../src/eid-providers/upstream-oidc/upstream-order.store.js';
import { FakeUpstream } from '../fakes/upstream-openid-provider.js';
import { TestClock } from '../support/test-clock.js';

const NO_BANKID = 'urn:grn:authn:no:bankid';
const NNIN = '01017012345';
const signing = generateKeyPairSync('rsa', { modulusLength: 2048 });

/** The order table in memory, with the store's conditions (an ended order stays ended). */
function memoryOrders(): UpstreamOrderStore {
  const rows = new Map<string, UpstreamOrder>();
  const update = (orderRef: string, status: string, change: Partial<UpstreamOrder>) => {
    const row = rows.get(orderRef);
    if (row?.status === status) Object.assign(row, change);
  };
  return {
    insertBackchannel: (order, secretsEnc) => {
      rows.set(order.orderRef, {
        ...order,
        status: 'started',
        hintCode: 'outstandingTransaction',
        secretsEnc,
        stateHash: null,
        completionEnc: null,
      });
      return Promise.resolve();
    },
    pendingBackchannel: (orderRef, hintCode, secretsEnc) => Promise.resolve(update(orderRef, 'started', { hintCode, secretsEnc })),
    finish: (orderRef, outcome) => Promise.resolve(update(orderRef, 'started', { ...outcome, secretsEnc: null })),
    findByRef: (orderRef) => Promise.resolve(rows.get(orderRef) ?? null),
  } as Partial<UpstreamOrderStore> as UpstreamOrderStore;
}

describe('CIBA towards an upstream OpenID provider (openid-client against a local oidc-provider with CIBA on)', () => {
  let fake: FakeUpstream;
  let provider: UpstreamOidcProvider;
  const clock = new TestClock();

  beforeAll(async () => {
    const jwk = signing.publicKey.export({ format: 'jwk' }) as JWK;
    const kid = await calculateJwkThumbprint({ kty: jwk.kty, n: jwk.n, e: jwk.e });
    fake = await FakeUpstream.start({
      profile: 'nbid',
      clientId: 'gw-nbid',
      redirectUri: 'http://127.0.0.1:1/upstream/nbid/callback',
      clientKeys: [{ kty: jwk.kty, n: jwk.n, e: jwk.e, kid, use: 'sig', alg: 'RS256' }],
      ciba: true,
    });
    const upstream = {
      name: 'nbid',
      issuer: fake.issuer,
      environment: 'test',
      clientId: 'gw-nbid',
      clientAuth: 'private_key_jwt',
      privateKey: signing.privateKey,
      scope: 'openid profile nnin',
      acrValues: 'urn:bankid:bid',
      frontAcrValues: [NO_BANKID],
      requestObject: false,
      claims: { nationalId: 'nnin' },
      businessClaims: {},
      country: 'NO',
    } as UpstreamConfig;
    const connections = new UpstreamConnections({ upstreams: [upstream], timeoutSeconds: 10 }, clock);
    await connections.onModuleInit();
    provider = new UpstreamOidcProvider(upstream, {
      connections,
      orders: memoryOrders(),
      cipher: new DataCipher(randomBytes(32)),
      clock,
      publicBaseUrl: 'http://127.0.0.1:1',
    });
  }, 30_000);
  afterAll(() => fake?.close());
  beforeEach(() => clock.freeze());

  const start = () => provider.start({ environment: 'test', operation: 'auth', channel: 'phone', personalNumber: NNIN });
  // Past any interval the upstream set, slow_down's included.
  const later = () => clock.advance(60_000);

  it('should offer CIBA by its first front acr, reading a national identifier as the login_hint', () => {
    expect(provider.offers('auth', 'phone')).toBe(true);
    expect(provider.openId?.ciba).toMatchObject({ acr: NO_BANKID, channel: 'phone' });
    expect(provider.openId?.ciba?.loginHint?.(`sub:ssn:${NNIN}`)).toEqual({ identifier: NNIN, personKey: `NO\0${NNIN}` });
    expect(provider.openId?.ciba?.loginHint?.('<script>')).toBeUndefined();
  });

  it("should keep the order pending through the upstream's slow_down and authorization_pending, then give its person", async () => {
    const { orderRef } = await start();
    // Not yet due: the upstream is not asked.
    expect(await provider.collect({ orderRef, environment: 'test' })).toEqual({ status: 'pending', hintCode: 'outstandingTransaction' });
    later();
    expect(await provider.collect({ orderRef, environment: 'test' })).toEqual({ status: 'pending', hintCode: SLOW_DOWN_HINT });
    // Said once: the next collect before the slower pace allows is plainly pending.
    expect(await provider.collect({ orderRef, environment: 'test' })).toEqual({ status: 'pending', hintCode: 'outstandingTransaction' });
    later();
    expect(await provider.collect({ orderRef, environment: 'test' })).toEqual({ status: 'pending', hintCode: 'outstandingTransaction' });

    await fake.endBackchannel('approve');
    later();
    const result = await provider.collect({ orderRef, environment: 'test' });
    expect(result.status).toBe('complete');
    expect(result.completion?.user).toMatchObject({ nationalId: NNIN, country: 'NO', name: 'Kari Nordmann' });
    expect(result.completion?.evidence).toMatchObject({ acr: 'urn:bankid:bid', amr: ['bid'] });
    // Ended: the upstream is not asked again.
    expect((await provider.collect({ orderRef, environment: 'test' })).status).toBe('complete');
  });

  it('should give one answer when two collects overlap: the one that used the auth_req_id wins, the other waits', async () => {
    const { orderRef } = await start();
    later();
    await provider.collect({ orderRef, environment: 'test' });
    await fake.endBackchannel('approve');
    later();
    const overlapping = await Promise.all([1, 2].map(() => provider.collect({ orderRef, environment: 'test' })));
    expect(overlapping.map((result) => result.status)).toContain('complete');
    expect(overlapping.map((result) => result.status)).not.toContain('failed');
    expect((await provider.collect({ orderRef, environment: 'test' })).status).toBe('complete');
  });

  it('should fail providerError when the tokens are signed by a key outside the JWKS', async () => {
    const { orderRef } = await start();
    await fake.endBackchannel('approve');
    await fake.forgeIdTokens(true);
    try {
      later();
      expect(await provider.collect({ orderRef, environment: 'test' })).toEqual({ status: 'failed', hintCode: 'providerError' });
    } finally {
      await fake.forgeIdTokens(false);
    }
  });

  it.each([
    ['deny', 'userCancel'],
    ['expire', 'expiredTransaction'],
  ] as const)('should end the order when the upstream answers %s', async (action, hintCode) => {
    const { orderRef } = await start();
    later();
    await provider.collect({ orderRef, environment: 'test' });
    await fake.endBackchannel(action);
    later();
    expect(await provider.collect({ orderRef, environment: 'test' })).toEqual({ status: 'failed', hintCode });
  });

  it("should refuse a person the upstream does not know as the request's fault", async () => {
    const refused = provider.start({ environment: 'test', operation: 'auth', channel: 'phone', personalNumber: '31129912345' });
    await expect(refused).rejects.toBeInstanceOf(ValidationProblemException);
    await expect(refused).rejects.toMatchObject({
      errors: [{ pointer: '/personalNumber', detail: 'The upstream refused the backchannel request (error: unknown_user_id)' }],
    });
  });
});
