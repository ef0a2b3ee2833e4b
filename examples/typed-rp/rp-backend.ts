// A relying party's backend with a client generated from the gateway's OpenAPI document:
// start an identification, wait for its signed webhook, then confirm the result by polling.
//
//   npx openapi-typescript openapi.json -o examples/typed-rp/eid-gateway.d.ts   (npm run openapi does it)
//   EID_GATEWAY_URL=http://localhost:3000 EID_API_KEY=eidk_test_… WEBHOOK_SECRET=whsec_… PORT=4000 \
//     node --experimental-strip-types examples/typed-rp/rp-backend.ts
//
// Register http://<this host>:4000/hooks as a webhook endpoint of the team first (README, "Webhooks").
import { createServer } from 'node:http';
import createClient from 'openapi-fetch';
import { Webhook } from 'standardwebhooks';
import type { components, paths } from './eid-gateway.d.ts';

type SessionEvent = components['schemas']['WebhookEventDto'];
type SessionState = components['schemas']['SessionStateDto'];

const required = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name}`);
  return value;
};

const gateway = createClient<paths>({
  baseUrl: process.env.EID_GATEWAY_URL ?? 'http://localhost:3000',
  headers: { 'x-api-key': required('EID_API_KEY') },
});
const webhook = new Webhook(required('WEBHOOK_SECRET'));
// Sessions this backend started and is waiting for, by id: a webhook of any other session is ignored.
const waiting = new Map<string, (event: SessionEvent) => void>();

/** Starts an identification for the end user at `endUserIp` and answers the link to show them. */
async function startIdentification(endUserIp: string, orderId: string) {
  const { data, error } = await gateway.POST('/api/v1/auth/{provider}/start', {
    params: { path: { provider: 'simulator' } },
    body: { endUserIp, userVisibleData: `Log in to order ${orderId}`, metadata: { orderId } },
  });
  // Errors are RFC 9457 problems with a code: typed by status in the generated client.
  if (error) throw new Error(`start refused: ${error.code ?? error.title}`);
  return data;
}

/** The webhook settles the wait; the poll confirms it from the gateway itself before trusting it. */
async function confirm(sessionId: string): Promise<SessionState> {
  const { data, error } = await gateway.POST('/api/v1/auth/{sessionId}/poll', { params: { path: { sessionId } } });
  if (error) throw new Error(`poll refused: ${error.code}`);
  return data;
}

function waitForEnd(sessionId: string): Promise<SessionEvent> {
  return new Promise((resolve) => waiting.set(sessionId, resolve));
}

const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    try {
      // Verify the raw bytes (docs/webhooks.md): re-serialised JSON would not match the signature.
      const event = webhook.verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>) as SessionEvent;
      waiting.get(event.data.sessionId)?.(event);
      waiting.delete(event.data.sessionId);
      res.writeHead(204).end();
    } catch {
      res.writeHead(400).end();
    }
  });
});

async function identifyOnce(): Promise<void> {
  const started = await startIdentification('192.0.2.10', 'A-1001');
  console.log(`Show the end user ${started.kioskUrl ?? `the QR of session ${started.sessionId}`}`);
  const event = await waitForEnd(started.sessionId);
  const state = await confirm(started.sessionId);
  if (event.type === 'auth.session.completed' && state.status === 'complete' && state.user) {
    console.log(`Identified ${state.user.name} (order ${String(event.data.metadata?.orderId)})`);
  } else {
    console.log(`Not identified: ${state.hintCode ?? state.status}`);
  }
  receiver.close();
}

receiver.listen(Number(process.env.PORT ?? 4000), () => void identifyOnce());
