import { createServer, connect, type Server, type Socket } from 'node:net';

/** How the proxy treats traffic: pass it, refuse it (the server is down), or swallow it (a partition). */
export type ProxyState = 'open' | 'refusing' | 'blackhole';

/**
 * A TCP proxy on loopback between the service and a dependency (PostgreSQL, Redis) that a test can cut,
 * slow down and restore, to fail the real dependency without stopping the machine's shared server
 * (docs/reliability.md).
 *
 * - `cut()` destroys every connection and refuses new ones (the listener closes: ECONNREFUSED), as when
 *   the server restarts.
 * - `blackhole()` keeps accepting but forwards nothing, either way, as in a network partition: the
 *   client's own timeouts are all that end its waits.
 * - `delay(ms)` holds each chunk that long in both directions.
 * - `restore()` passes traffic again on the same port.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  private latencyMs = 0;
  /** When the last held chunk of each direction leaves, so that a changed delay never reorders bytes. */
  private readonly due = new WeakMap<Socket, number>();
  private state: ProxyState = 'open';
  /** Connections accepted in all, for a test that wants to see the client reconnect. */
  connections = 0;
  /** Sees every chunk a client sends, as it arrives (before any delay or blackhole): what the service asks. */
  onClientData: ((chunk: Buffer) => void) | null = null;

  private constructor(
    private readonly target: { host: string; port: number },
    private listenPort: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target, 0);
    await proxy.listen();
    return proxy;
  }

  get port(): number {
    return this.listenPort;
  }

  /** `url` (postgres://…, redis://…) with its host and port replaced by the proxy's. */
  rewrite(url: string): string {
    const rewritten = new URL(url);
    rewritten.hostname = '127.0.0.1';
    rewritten.port = String(this.listenPort);
    return rewritten.toString();
  }

  get current(): ProxyState {
    return this.state;
  }

  /** Destroys every open connection and refuses new ones until `restore()`. */
  async cut(): Promise<void> {
    this.state = 'refusing';
    this.dropAll();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Connections stay open (new ones are accepted) but no byte passes, until `restore()`. */
  async blackhole(): Promise<void> {
    this.state = 'blackhole';
    if (!this.server) await this.listen();
  }

  /** Holds every chunk `ms` before passing it on. */
  delay(ms: number): void {
    this.latencyMs = ms;
  }

  /** Passes traffic again, on the same port. Connections swallowed by a blackhole are dropped. */
  async restore(): Promise<void> {
    if (this.state === 'blackhole') this.dropAll();
    this.state = 'open';
    this.latencyMs = 0;
    if (!this.server) await this.listen();
  }

  async close(): Promise<void> {
    await this.cut();
  }

  private dropAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  private async listen(): Promise<void> {
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.listenPort, '127.0.0.1', () => resolve());
    });
    this.listenPort = (server.address() as { port: number }).port;
    this.server = server;
  }

  private accept(client: Socket): void {
    this.connections++;
    this.track(client);
    client.on('data', (chunk: Buffer) => this.onClientData?.(chunk));
    if (this.state === 'blackhole') {
      client.on('data', () => undefined);
      return;
    }
    const upstream = connect(this.target.port, this.target.host);
    this.track(upstream);
    this.pipe(client, upstream);
    this.pipe(upstream, client);
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.sockets.delete(socket);
    });
  }

  /** Copies `from` to `to` chunk by chunk, honouring the delay and the blackhole; a close ends both. */
  private pipe(from: Socket, to: Socket): void {
    from.on('data', (chunk: Buffer) => {
      if (this.state === 'blackhole') return;
      const send = () => {
        if (this.state === 'open' && !to.destroyed) to.write(chunk);
      };
      const at = Math.max(Date.now() + this.latencyMs, this.due.get(to) ?? 0);
      this.due.set(to, at);
      if (at > Date.now()) setTimeout(send, at - Date.now());
      else send();
    });
    from.on('close', () => {
      // Within a blackhole the other side must not learn of the close either.
      if (this.state !== 'blackhole') to.destroy();
    });
  }
}
