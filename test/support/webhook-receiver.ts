import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as the signature covers it. */
  body: string;
  receivedAt: number;
}

/** What the receiver does with one request: answer (after a delay), or hold it open for ever. */
export type ReceiverAnswer = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | { hang: true };

/**
 * A real HTTP server on loopback standing in for a relying party's backend. Answers follow a
 * script (then a default); it counts a message id arriving while the same id is still in flight.
 */
export class WebhookReceiver {
  readonly requests: ReceivedWebhook[] = [];
  /** Times a webhook-id arrived while an earlier request with that id was still being answered. */
  concurrentDuplicates = 0;
  /** The most requests this receiver held open at one time. */
  maxOpen = 0;
  private open = 0;
  private readonly inFlight = new Map<string, number>();
  private readonly script: ReceiverAnswer[] = [];
  private fallback: ReceiverAnswer = { status: 200, body: 'ok' };
  private waiters: { count: number; resolve: () => void }[] = [];
  private readonly hung = new Set<ServerResponse>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => receiver.handle(req.url ?? '/', req.headers, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hooks/eid'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The next requests get these answers, in order; later ones the default. */
  answerNext(...answers: ReceiverAnswer[]): void {
    this.script.push(...answers);
  }

  answerByDefault(answer: ReceiverAnswer): void {
    this.fallback = answer;
  }

  /** Resolves once `count` requests have arrived in all; rejects after `timeoutMs`. */
  waitForRequests(count: number, timeoutMs = 10_000): Promise<ReceivedWebhook[]> {
    if (this.requests.length >= count) return Promise.resolve(this.requests.slice(0, count));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`The receiver got ${this.requests.length} of ${count} requests within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(this.requests.slice(0, count))) });
    });
  }

  messageIds(): string[] {
    return this.requests.map((r) => String(r.headers['webhook-id']));
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    for (const res of this.hung) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(path: string, headers: IncomingHttpHeaders, body: string, res: ServerResponse): void {
    const id = String(headers['webhook-id']);
    const inFlight = this.inFlight.get(id) ?? 0;
    if (inFlight > 0) this.concurrentDuplicates++;
    this.inFlight.set(id, inFlight + 1);
    this.maxOpen = Math.max(this.maxOpen, ++this.open);
    const done = () => {
      this.inFlight.set(id, (this.inFlight.get(id) ?? 1) - 1);
      this.open--;
    };
    res.on('close', done);

    this.requests.push({ path, headers, body, receivedAt: Date.now() });
    this.waiters = this.waiters.filter((waiter) => (this.requests.length >= waiter.count ? (waiter.resolve(), false) : true));

    const answer = this.script.shift() ?? this.fallback;
    if ('hang' in answer) {
      this.hung.add(res);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      // The sender may have given up (its timeout) and closed the connection meanwhile.
      if (!res.destroyed) res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body ?? '');
    }, answer.delayMs ?? 0);
    this.timers.add(timer);
  }
}
