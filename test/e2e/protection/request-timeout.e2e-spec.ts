import { connect, type Socket } from 'node:net';
import { useE2eApp } from '../../support/e2e.js';

// docs/operations.md, "Slow clients": with REQUEST_TIMEOUT=1s, a connection that trickles its headers or its
// body, or sits idle after a response, is closed. Without the limits Node waits 60 s for headers and
// Fastify keeps an idle connection 72 s, so a generous wait of a few seconds tells the two apart.
const WAIT_MS = 6_000;

describe('Request timeout', () => {
  const e2e = useE2eApp({ env: { REQUEST_TIMEOUT: '1s' }, listen: true });

  /** Opens a connection, writes `text`, and resolves with what came back once the server closes it, or null. */
  const closedAfter = (text: string): Promise<string | null> =>
    new Promise((resolve) => {
      const socket: Socket = connect(Number(new URL(e2e.baseUrl).port), '127.0.0.1', () => socket.write(text));
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      const timer = setTimeout(() => {
        socket.destroy();
        resolve(null);
      }, WAIT_MS);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(received);
      });
      socket.on('error', () => undefined);
    });

  it('should close a connection whose headers never finish', async () => {
    expect(await closedAfter('GET /health/live HTTP/1.1\r\nHost: x\r\nX-Slow: ')).not.toBeNull();
  });

  it('should close a connection whose body never finishes', async () => {
    const head = 'POST /api/v1/auth/simulator/start HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    expect(await closedAfter(`${head}{"endUserIp":`)).not.toBeNull();
  });

  it('should close an idle keep-alive connection after answering', async () => {
    const received = await closedAfter('GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    expect(received).toMatch(/^HTTP\/1\.1 200/);
  });
});
