import { TestClock } from '../../../test/support/test-clock.js';
import { createFrejaSigner, type FrejaSigner } from '../../../test/fakes/freja-signing-certificates.js';
import { FAKE_FREJA_USER, FakeFrejaServer } from '../../../test/fakes/freja-rp-fake.js';
import { createTestPki, TEST_PASSPHRASE, type TestPki } from '../../../test/fakes/test-certificates.js';
import type { FrejaConfig } from './freja.config.js';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import { FrejaConnections } from './freja-connections.js';
import { frejaQrData, parseFrejaOrderRef } from './freja-qr.js';
import { RpCertificateCheck } from '../rp-certificate.check.js';
import { FrejaProvider } from './freja.provider.js';

describe(FrejaProvider.name, () => {
  let pki: TestPki;
  let impostor: FrejaSigner;
  let freja: FakeFrejaServer;
  let connections: FrejaConnections;
  let provider: FrejaProvider;
  const clock = new TestClock();

  const reference = (orderRef: string) => parseFrejaOrderRef(orderRef).reference;

  beforeAll(async () => {
    pki = await createTestPki({ service: 'Freja eID' });
    const signer = await createFrejaSigner(pki.dir, 'freja-signer');
    impostor = await createFrejaSigner(pki.dir, 'impostor');
    freja = new FakeFrejaServer({
      key: pki.server.key,
      cert: pki.server.cert,
      clientCa: pki.rpCa,
      authorizedClients: ['Fake RP'],
      signer,
      now: () => clock.now(),
    });
    const url = await freja.listen();
    const config: FrejaConfig = {
      timeoutMs: 2000,
      environments: {
        test: {
          url,
          pfx: pki.client.pfxPath,
          passphrase: TEST_PASSPHRASE,
          ca: pki.bankIdCaPath,
          source: {
            pfx: 'FREJA_TEST_PFX',
            passphrase: 'FREJA_TEST_PASSPHRASE',
            cert: 'FREJA_TEST_CERT',
            key: 'FREJA_TEST_KEY',
            ca: 'FREJA_CA',
          },
          jwsCerts: signer.certPath,
          jwsCertsVariable: 'FREJA_TEST_JWS_CERTS',
        },
      },
    };
    connections = new FrejaConnections(config);
    provider = new FrejaProvider(connections, clock, new RpCertificateCheck('Freja', connections, clock));
  });
  afterAll(async () => {
    await connections.onModuleDestroy();
    await freja.close();
    await pki.remove();
  });

  it('should serve only the environments it has certificates for', () => {
    expect(provider.supports('test')).toBe(true);
    expect(provider.supports('live')).toBe(false);
  });

  it('should offer no payment, so a payment start answers 404 operation_not_supported (docs/api.md, "Payment")', () => {
    expect(provider.offers('payment', 'app')).toBe(false);
    expect(provider.offers('auth', 'app')).toBe(true);
  });

  it('should authenticate: STARTED, DELIVERED_TO_MOBILE, then the verified user in BankID’s shape', async () => {
    const order = await provider.start({ environment: 'test', operation: 'auth', channel: 'app', endUserIp: '192.0.2.1' });
    const ref = reference(order.orderRef);
    expect(frejaQrData(ref)).toBe(`frejaeid://bindUserToTransaction?transactionReference=${encodeURIComponent(ref)}`);
    expect(await provider.collect({ environment: 'test', orderRef: order.orderRef })).toEqual({
      status: 'pending',
      hintCode: 'outstandingTransaction',
    });
    freja.deliver(ref);
    expect(await provider.collect({ environment: 'test', orderRef: order.orderRef })).toEqual({ status: 'pending', hintCode: 'started' });
    await freja.approve(ref);
    const result = await provider.collect({ environment: 'test', orderRef: order.orderRef });
    expect(result).toMatchObject({
      status: 'complete',
      completion: {
        user: { personalNumber: FAKE_FREJA_USER.ssn, name: 'Frida Frejasson', givenName: 'Frida', surname: 'Frejasson' },
        evidence: { details: expect.any(String) },
      },
    });
  });

  it('should sign the text as SIMPLE_UTF8_TEXT and keep the user’s signature', async () => {
    const order = await provider.start({
      environment: 'test',
      endUserIp: '192.0.2.1',
      operation: 'sign',
      channel: 'app',
      userVisibleData: 'Jag godkänner',
    });
    expect(freja.transaction(reference(order.orderRef))?.request).toMatchObject({
      dataToSignType: 'SIMPLE_UTF8_TEXT',
      signatureType: 'SIMPLE',
    });
    await freja.approve(reference(order.orderRef));
    expect(await provider.collect({ environment: 'test', orderRef: order.orderRef })).toMatchObject({
      status: 'complete',
      completion: { evidence: { userSignature: expect.any(String) } },
    });
  });

  it.each([
    ['declined by the user', (ref: string) => freja.decline(ref), 'userCancel'],
    ['refused by Freja', (ref: string) => freja.reject(ref), 'providerRejected'],
    ['expired', () => clock.advance(121_000), 'expiredTransaction'],
  ])('should fail a transaction %s', async (_case, act, hintCode) => {
    clock.freeze();
    const order = await provider.start({ environment: 'test', operation: 'auth', channel: 'app', endUserIp: '192.0.2.1' });
    act(reference(order.orderRef));
    expect(await provider.collect({ environment: 'test', orderRef: order.orderRef })).toEqual({ status: 'failed', hintCode });
  });

  it('should cancel at Freja (RP_CANCELED → cancelled), and treat a second cancel as done', async () => {
    const order = await provider.start({ environment: 'test', operation: 'auth', channel: 'app', endUserIp: '192.0.2.1' });
    await provider.cancel({ environment: 'test', orderRef: order.orderRef });
    expect(await provider.collect({ environment: 'test', orderRef: order.orderRef })).toEqual({ status: 'failed', hintCode: 'cancelled' });
    await expect(provider.cancel({ environment: 'test', orderRef: order.orderRef })).resolves.toBeUndefined();
  });

  it('should not believe a result whose signature does not verify: the session fails with providerError', async () => {
    freja.forgeSignaturesWith(impostor);
    const order = await provider.start({ environment: 'test', operation: 'auth', channel: 'app', endUserIp: '192.0.2.1' });
    await freja.approve(reference(order.orderRef));
    expect(await provider.collect({ environment: 'test', orderRef: order.orderRef })).toEqual({
      status: 'failed',
      hintCode: 'providerError',
    });
  });

  it('should report a transaction Freja no longer knows as expired', async () => {
    expect(await provider.collect({ environment: 'test', orderRef: 'auth:gone' })).toEqual({
      status: 'failed',
      hintCode: 'expiredTransaction',
    });
  });

  it('should answer 400 to a request Freja refuses and 502 to an outage', async () => {
    freja.fail({
      operation: 'auth',
      method: 'init',
      times: 1,
      status: 422,
      code: 1012,
      message: 'User with the specified user info does not exist.',
    });
    const refused = await provider
      .start({
        environment: 'test',
        operation: 'auth',
        channel: 'app',
        endUserIp: '192.0.2.1',
        options: { userInfoType: 'SSN', userInfo: '199001012393' },
      })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainException);
    expect(refused).toMatchObject({ code: 'provider_rejected_request', options: { extensions: { providerErrorCode: 1012 } } });
    freja.fail({ operation: 'auth', method: 'getOneResult', times: 1, status: 503 });
    await expect(provider.collect({ environment: 'test', orderRef: 'auth:any' })).rejects.toMatchObject({ code: 'provider_unavailable' });
  });
});
