import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { createFrejaSigner } from '../../../test/fakes/freja-signing-certificates.js';
import { FakeFrejaServer } from '../../../test/fakes/freja-rp-fake.js';
import { createTestPki, TEST_PASSPHRASE, type TestPki } from '../../../test/fakes/test-certificates.js';
import { FrejaClient, FrejaError } from './freja-client.js';
import type { InitAuthRequest, InitSignRequest } from './freja-rp-api.js';

const INFERRED: InitAuthRequest = {
  userInfoType: 'INFERRED',
  userInfo: 'N/A',
  minRegistrationLevel: 'EXTENDED',
  attributesToReturn: [{ attribute: 'BASIC_USER_INFO' }, { attribute: 'SSN' }],
};
const SIGN: InitSignRequest = {
  ...INFERRED,
  dataToSignType: 'SIMPLE_UTF8_TEXT',
  dataToSign: { text: Buffer.from('Jag godkänner', 'utf8').toString('base64') },
  signatureType: 'SIMPLE',
};

describe(FrejaClient.name, () => {
  let pki: TestPki;
  let freja: FakeFrejaServer;
  let baseUrl: string;
  let agent: Agent;
  let client: FrejaClient;

  beforeAll(async () => {
    pki = await createTestPki({ service: 'Freja eID' });
    const signer = await createFrejaSigner(pki.dir, 'freja-signer');
    freja = new FakeFrejaServer({ key: pki.server.key, cert: pki.server.cert, clientCa: pki.rpCa, authorizedClients: ['Fake RP'], signer });
    baseUrl = await freja.listen();
    agent = new Agent({ connect: { pfx: readFileSync(pki.client.pfxPath), passphrase: TEST_PASSPHRASE, ca: pki.bankIdCa } });
    client = new FrejaClient({ baseUrl, dispatcher: agent, timeoutMs: 2000 });
  });
  beforeEach(() => freja.received.splice(0));
  afterAll(async () => {
    await agent.close();
    await freja.close();
    await pki.remove();
  });

  it('should send one form parameter holding base64 of the JSON request, over mutual TLS', async () => {
    const authRef = await client.initAuthentication(INFERRED);
    expect(freja.transaction(authRef)?.status).toBe('STARTED');
    expect(freja.received).toEqual([
      {
        path: '/authentication/1.0/initAuthentication',
        contentType: 'application/json',
        parameter: 'initAuthRequest',
        request: INFERRED,
        clientCn: 'Fake RP',
      },
    ]);
  });

  it('should read each documented status of an authentication through getOneResult', async () => {
    const authRef = await client.initAuthentication(INFERRED);
    expect(await client.getOneResult('auth', authRef)).toEqual({ reference: authRef, status: 'STARTED' });
    freja.deliver(authRef);
    expect(await client.getOneResult('auth', authRef)).toEqual({ reference: authRef, status: 'DELIVERED_TO_MOBILE' });
    await freja.approve(authRef);
    const approved = await client.getOneResult('auth', authRef);
    expect(approved).toMatchObject({ reference: authRef, status: 'APPROVED', details: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) });
    expect(freja.received.at(-1)).toMatchObject({
      path: '/authentication/1.0/getOneResult',
      parameter: 'getOneAuthResultRequest',
      request: { authRef },
    });
  });

  it('should start, read and cancel a signature under signRef', async () => {
    const signRef = await client.initSignature(SIGN);
    expect(await client.getOneResult('sign', signRef)).toEqual({ reference: signRef, status: 'STARTED' });
    await expect(client.cancel('sign', signRef)).resolves.toBeUndefined();
    expect(await client.getOneResult('sign', signRef)).toEqual({ reference: signRef, status: 'RP_CANCELED' });
    expect(freja.received.map((r) => [r.path, r.parameter])).toEqual([
      ['/sign/1.0/initSignature', 'initSignRequest'],
      ['/sign/1.0/getOneResult', 'getOneSignResultRequest'],
      ['/sign/1.0/cancel', 'cancelSignRequest'],
      ['/sign/1.0/getOneResult', 'getOneSignResultRequest'],
    ]);
  });

  it.each([
    ['CANCELED', (ref: string) => freja.decline(ref)],
    ['REJECTED', (ref: string) => freja.reject(ref)],
  ])('should read %s', async (status, act) => {
    const authRef = await client.initAuthentication(INFERRED);
    act(authRef);
    expect(await client.getOneResult('auth', authRef)).toEqual({ reference: authRef, status });
  });

  it.each([
    ['an unknown reference', () => client.getOneResult('auth', 'no-such-ref'), 1100, 422],
    ['a bad userInfo', () => client.initAuthentication({ ...INFERRED, userInfoType: 'SSN', userInfo: 'x' }), 1002, 422],
    ['SSN with BASIC', () => client.initAuthentication({ ...INFERRED, minRegistrationLevel: 'BASIC' }), 2002, 422],
    ['a bad dataToSign', () => client.initSignature({ ...SIGN, dataToSign: { text: 'not base64!' } }), 3001, 422],
  ])('should give Freja’s {code, message} for %s as an api error', async (_case, call, code, httpStatus) => {
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FrejaError);
    expect(error).toMatchObject({ kind: 'api', code, detail: { httpStatus, frejaMessage: expect.any(String) } });
  });

  it('should give an outage page without a Freja code as an api error without code', async () => {
    freja.fail({ operation: 'auth', method: 'getOneResult', times: 1, status: 503 });
    await expect(client.getOneResult('auth', 'x')).rejects.toMatchObject({ kind: 'api', code: undefined, detail: { httpStatus: 503 } });
  });

  it('should refuse a client certificate of an RP Freja does not know (1008)', async () => {
    const unknown = new Agent({ connect: { cert: pki.unknownRp.cert, key: pki.unknownRp.key, ca: pki.bankIdCa } });
    const stranger = new FrejaClient({ baseUrl, dispatcher: unknown, timeoutMs: 2000 });
    await expect(stranger.initAuthentication(INFERRED)).rejects.toMatchObject({ kind: 'api', code: 1008 });
    await unknown.close();
  });

  it('should fail the handshake as tls when the pinned CA did not sign Freja’s server', async () => {
    const wrongCa = new Agent({ connect: { cert: pki.client.cert, key: pki.client.key, ca: readFileSync(pki.otherCaPath) } });
    const pinned = new FrejaClient({ baseUrl, dispatcher: wrongCa, timeoutMs: 2000 });
    await expect(pinned.initAuthentication(INFERRED)).rejects.toMatchObject({ kind: 'tls' });
    await wrongCa.close();
  });

  it.each([['not json'], ['{"authRef":"r","status":"UNHEARD_OF"}'], ['{"signRef":"r","status":"STARTED"}']])(
    'should refuse the 200 answer %s as a protocol error',
    async (raw) => {
      const server = createServer((_req, res) => res.end(raw));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const plain = new FrejaClient({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        dispatcher: new Agent(),
        timeoutMs: 2000,
      });
      await expect(plain.getOneResult('auth', 'r')).rejects.toMatchObject({ kind: 'protocol' });
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  );
});
