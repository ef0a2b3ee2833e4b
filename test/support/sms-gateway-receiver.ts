import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GatewayRequest {
  headers: Record<string, string | string[] | undefined>;
  body: { channel: string; to: string; code: string; message: string };
}

export interface SmsGatewayReceiver {
  url: string;
  requests: GatewayRequest[];
  /** The status every later request is answered with (200 by default). */
  answerWith(status: number): void;
  close(): Promise<void>;
}

/** A real HTTP server on loopback that plays the SMS gateway of OTP_DELIVERY=http. */
export async function startSmsGatewayReceiver(): Promise<SmsGatewayReceiver> {
  const requests: GatewayRequest[] = [];
  let status = 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/send`,
    requests,
    answerWith: (value) => {
      status = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
