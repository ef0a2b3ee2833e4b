import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { FakeBankIdServer } from '../../../test/fakes/bankid-rp-fake.js';
import { createTestPki, type TestPki } from '../../../test/fakes/test-certificates.js';
import { BankIdClient, BankIdError } from './bankid-client.js';

// Request and response bodies in the form BankID's RP API v6.0 documentation gives them (the QR
// tokens are those of its animated-QR example).
const ORDER_REF = '131daac9-16c6-4618-beb0-365768f37288';
const DOCUMENTED = {
  authResponse: {
    orderRef: ORDER_REF,
    autoStartToken: '7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6',
    qrStartToken: '67df3917-fa0d-44e5-b327-edcc928297f8',
    qrStartSecret: 'd28db9a7-4cde-429e-a983-359be676944c',
  },
  collectPending: { orderRef: ORDER_REF, status: 'pending', hintCode: 'outstandingTransaction' },
  collectFailed: { orderRef: ORDER_REF, status: 'failed', hintCode: 'userCancel' },
  collectComplete: {
    orderRef: ORDER_REF,
    status: 'complete',
    completionData: {
      user: { personalNumber: '190000000000', name: 'Karl Karlsson', givenName: 'Karl', surname: 'Karlsson' },
      device: { ipAddress: '192.168.0.1', uhi: 'OZvYM9VvyiAmG7NA5jU5zRGcVTvUfnqN3Mx0fu5vT2KM' },
      bankIdIssueDate: '2020-02-01',
      stepUp: { mrtd: true },
      signature: 'PD94bWwgdmVyc2lvbj0iMS4wIj8+',
      ocspResponse: 'MIIHfgoBAKCCB3cwggdzBgkrBgEFBQcwAQE=',
      risk: 'low',
    },
  },
  error: (errorCode: string, details: string) => ({ errorCode, details }),
};

interface Reply {
  status?: number;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  /** Never answer: the client's timeout must end the call. */
  hang?: boolean;
}

/** A loopback RP API that records each request and plays back the next recorded reply. */
class RecordedBankId {
  readonly received: { method?: string; url?: string; contentType?: string; body: string }[] = [];
  private replies: Reply[] = [];
  private readonly server: Server;

  constructor() {
    this.server = createServer((req, res) => void this.answer(req, res));
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/rp/v6.0/`;
  }

  reply(...replies: Reply[]): void {
    this.replies = replies;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    this.received.push({
      method: req.method,
      url: req.url,
      contentType: req.headers['content-type'],
      body: Buffer.concat(chunks).toString(),
    });
    const reply = this.replies.shift() ?? { status: 500, raw: 'no reply recorded' };
    if (reply.hang) return;
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.raw ?? JSON.stringify(reply.body));
  }
}

describe(BankIdClient.name, () => {
  let bankId: RecordedBankId;
  let agent: Agent;
  let client: BankIdClient;

  beforeAll(async () => {
    bankId = new RecordedBankId();
    agent = new Agent();
    client = new BankIdClient({
      baseUrl: await bankId.listen(),
      dispatcher: agent,
      timeoutMs: 300,
      retryDelaysMs: [5, 10],
      random: () => 1,
    });
  });

  beforeEach(() => bankId.received.splice(0));

  afterAll(async () => {
    await agent.close();
    await bankId.close();
  });

  it('should POST auth as exactly application/json and read the order', async () => {
    bankId.reply({ body: DOCUMENTED.authResponse });
    const order = await client.auth({
      endUserIp: '194.168.2.25',
      userVisibleData: 'SGVq',
      userVisibleDataFormat: 'plaintext',
      returnRisk: true,
    });
    expect(order).toEqual(DOCUMENTED.authResponse);
    expect(bankId.received).toEqual([
      {
        method: 'POST',
        url: '/rp/v6.0/auth',
        contentType: 'application/json',
        body: '{"endUserIp":"194.168.2.25","userVisibleData":"SGVq","userVisibleDataFormat":"plaintext","returnRisk":true}',
      },
    ]);
  });

  it.each([
    ['pending', DOCUMENTED.collectPending],
    ['failed', DOCUMENTED.collectFailed],
    ['complete', DOCUMENTED.collectComplete],
  ])('should collect a %s order', async (_status, body) => {
    bankId.reply({ body });
    expect(await client.collect(ORDER_REF)).toEqual(body);
    expect(bankId.received[0]).toMatchObject({ url: '/rp/v6.0/collect', body: `{"orderRef":"${ORDER_REF}"}` });
  });

  it('should keep fields BankID may add to an answer out of the result', async () => {
    bankId.reply({ body: { ...DOCUMENTED.collectPending, somethingNew: 1 } });
    expect(await client.collect(ORDER_REF)).toEqual(DOCUMENTED.collectPending);
  });

  it('should cancel an order (BankID answers {})', async () => {
    bankId.reply({ body: {} });
    await expect(client.cancel(ORDER_REF)).resolves.toBeUndefined();
    expect(bankId.received[0]).toMatchObject({ url: '/rp/v6.0/cancel', body: `{"orderRef":"${ORDER_REF}"}` });
  });

  it.each([
    [400, 'alreadyInProgress'],
    [400, 'invalidParameters'],
    [401, 'unauthorized'],
    [403, 'unauthorized'],
    [404, 'notFound'],
    [405, 'methodNotAllowed'],
    [408, 'requestTimeout'],
    [415, 'unsupportedMediaType'],
    [400, 'somethingBankIdAddedLater'],
  ])('should give HTTP %i %s as an api error at once, without retrying', async (status, errorCode) => {
    bankId.reply({ status, body: DOCUMENTED.error(errorCode, 'details text') });
    const error = await client.collect(ORDER_REF).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BankIdError);
    expect(error).toMatchObject({
      kind: 'api',
      errorCode,
      retryable: false,
      detail: { httpStatus: status, bankIdDetails: 'details text' },
    });
    expect(bankId.received).toHaveLength(1);
  });

  it.each([
    ['maintenance', 503, 'maintenance'],
    ['Maintenance', 503, 'maintenance'],
    ['internalError', 500, 'internalError'],
  ])('should retry %s with backoff and succeed when BankID recovers', async (code, status, canonical) => {
    bankId.reply(
      { status, body: DOCUMENTED.error(code, 'x') },
      { status, body: DOCUMENTED.error(code, 'x') },
      { body: DOCUMENTED.collectPending },
    );
    expect(await client.collect(ORDER_REF)).toEqual(DOCUMENTED.collectPending);
    expect(bankId.received).toHaveLength(3);

    bankId.reply(...Array.from({ length: 3 }, () => ({ status, body: DOCUMENTED.error(code, 'x') })));
    await expect(client.collect(ORDER_REF)).rejects.toMatchObject({ kind: 'api', errorCode: canonical });
    expect(bankId.received).toHaveLength(6);
  });

  it('should retry a gateway error page in front of BankID', async () => {
    bankId.reply(
      { status: 502, raw: '<html>Bad Gateway</html>', headers: { 'content-type': 'text/html' } },
      { body: DOCUMENTED.collectPending },
    );
    expect(await client.collect(ORDER_REF)).toEqual(DOCUMENTED.collectPending);
  });

  it('should read RateLimit-Reset of a 429 and not retry', async () => {
    bankId.reply({ status: 429, body: DOCUMENTED.error('tooManyRequests', 'slow down'), headers: { 'RateLimit-Reset': '12' } });
    await expect(client.collect(ORDER_REF)).rejects.toMatchObject({
      kind: 'api',
      errorCode: 'tooManyRequests',
      detail: { retryAfterSeconds: 12 },
    });
    expect(bankId.received).toHaveLength(1);
  });

  it('should refuse a 200 answer that is not RP API v6.0', async () => {
    bankId.reply({ body: { orderRef: ORDER_REF, status: 'unheardOf' } });
    await expect(client.collect(ORDER_REF)).rejects.toMatchObject({ kind: 'protocol', retryable: false });
    bankId.reply({ raw: 'not json' });
    await expect(client.auth({ endUserIp: '192.0.2.1' })).rejects.toMatchObject({ kind: 'protocol' });
  });

  it('should time out each attempt and give up after the bounded retries', async () => {
    bankId.reply({ hang: true }, { hang: true }, { hang: true });
    await expect(client.collect(ORDER_REF)).rejects.toMatchObject({ kind: 'timeout', retryable: true });
    expect(bankId.received).toHaveLength(3);
  });

  it('should report a refused connection as a network failure', async () => {
    const closed = new RecordedBankId();
    const url = await closed.listen();
    await closed.close();
    const offline = new BankIdClient({ baseUrl: url, dispatcher: agent, timeoutMs: 300, retryDelaysMs: [] });
    await expect(offline.collect(ORDER_REF)).rejects.toMatchObject({ kind: 'network', detail: { cause: 'ECONNREFUSED' } });
  });

  describe('over mutual TLS', () => {
    let pki: TestPki;
    let fake: FakeBankIdServer;

    beforeAll(async () => {
      pki = await createTestPki();
      fake = await FakeBankIdServer.start({
        key: pki.server.key,
        cert: pki.server.cert,
        clientCa: pki.rpCa,
        authorizedClients: ['Fake RP'],
      });
    });

    const agents: Agent[] = [];

    afterAll(async () => {
      await Promise.all(agents.map((a) => a.close()));
      await fake?.close();
      await pki?.remove();
    });

    const clientWith = (connect: ConstructorParameters<typeof Agent>[0]) => {
      agents.push(new Agent(connect));
      return new BankIdClient({ baseUrl: fake.url, dispatcher: agents.at(-1)!, timeoutMs: 1_000, retryDelaysMs: [5, 5] });
    };

    it('should pin the CA: a server it did not sign is a tls failure, not retried', async () => {
      const pinnedElsewhere = clientWith({ connect: { cert: pki.client.cert, key: pki.client.key, ca: pki.rpCa } });
      await expect(pinnedElsewhere.auth({ endUserIp: '192.0.2.1' })).rejects.toMatchObject({ kind: 'tls', retryable: false });
    });

    it('should be refused by BankID with a client certificate it does not trust', async () => {
      const stranger = clientWith({ connect: { cert: pki.stranger.cert, key: pki.stranger.key, ca: pki.bankIdCa } });
      const error = await stranger.auth({ endUserIp: '192.0.2.1' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BankIdError);
      // TLS 1.3: the server checks the client certificate after the client's side of the handshake
      // is done, so its refusal shows as a closed connection, not as a handshake error.
      expect(error).toMatchObject({ kind: 'network', detail: { cause: 'UND_ERR_SOCKET' } });
      expect(fake.requests).toHaveLength(0);
    });

    it('should start an order with the right certificate', async () => {
      const rp = clientWith({ connect: { cert: pki.client.cert, key: pki.client.key, ca: pki.bankIdCa } });
      expect(await rp.auth({ endUserIp: '192.0.2.1' })).toMatchObject({ orderRef: expect.any(String), qrStartSecret: expect.any(String) });
      expect(fake.requests.at(-1)?.clientCn).toBe('Fake RP');
    });
  });
});
