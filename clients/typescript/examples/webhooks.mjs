// The README's tour, part two: webhook endpoints, a signed delivery verified, the delivery log and
// redelivery, the sessions listing. Needs a member token and a key of a `pro` team (the README's tour
// makes both) and the service started with WEBHOOK_ALLOW_PRIVATE_TARGETS=true (the receiver is local):
//   EID_API_KEY=$BACKEND EID_ACCESS_TOKEN=$TOKEN node clients/typescript/examples/webhooks.mjs
import { createServer } from 'node:http';
import { EidGateway, verifyWebhook } from '../dist/index.js';

const baseUrl = process.env.EID_GATEWAY_URL ?? 'http://localhost:3000';
const gateway = new EidGateway({
  apiKey: process.env.EID_API_KEY,
  accessToken: process.env.EID_ACCESS_TOKEN,
  environment: 'test',
  baseUrl,
});

// Your backend's receiver: verify the raw body with the endpoint's secret (Standard Webhooks).
let secret;
let arrived;
const deliveries = new Promise((resolve) => (arrived = resolve));
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    try {
      const event = verifyWebhook(req.headers, Buffer.concat(chunks), secret);
      console.log(`verified ${event.type} ${req.headers['webhook-id']} for ${event.data.sessionId}`);
      res.writeHead(204).end();
      arrived(event);
    } catch (error) {
      console.log(`refused: ${error.message}`);
      res.writeHead(400).end();
    }
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));

const endpoint = await gateway.webhookEndpoints.create({ url: `http://127.0.0.1:${receiver.address().port}/hooks` });
secret = endpoint.secret; // shown once: keep it in your secret store
try {
  const session = await gateway.sessions.startAuth('simulator', { endUserIp: '192.0.2.10', metadata: { orderId: 'A-1' } });
  await fetch(`${baseUrl}/api/v1/simulator/scan`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ autoStartToken: session.autoStartToken }),
  });
  // Nobody polls: the service collects the session and sends the event.
  const event = await deliveries;
  console.log('metadata echoed:', event.data.metadata);

  const bySession = { sessionId: { filterType: 'text', type: 'equals', filter: session.sessionId } };
  for await (const delivery of gateway.webhookDeliveries.list({ filterModel: bySession })) {
    console.log(`delivery ${delivery.messageId}: ${delivery.status} after ${delivery.attemptCount} attempt(s)`);
    await gateway.webhookDeliveries.redeliver(delivery.id); // the same webhook-id again
  }
  let rows = 0;
  for await (const row of gateway.sessions.list({ pageSize: 50 })) if (row.status === 'complete') rows++;
  console.log(`${rows} complete session(s) in the listing`);
  await new Promise((resolve) => setTimeout(resolve, 2_000)); // let the redelivery arrive
} finally {
  await gateway.webhookEndpoints.delete(endpoint.id);
  receiver.close();
}
