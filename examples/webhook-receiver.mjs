// A relying party's webhook receiver in a dozen lines: verify the raw body with the endpoint's
// secret (Standard Webhooks), deduplicate on webhook-id, answer 2xx quickly.
//   WEBHOOK_SECRET=whsec_... PORT=4000 node examples/webhook-receiver.mjs
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.WEBHOOK_SECRET);
const seen = new Set(); // use a shared store with a TTL in production

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    // Verify the bytes as they arrived: parsing and re-serialising the JSON would break the signature.
    const body = Buffer.concat(chunks).toString('utf8');
    try {
      const event = webhook.verify(body, req.headers);
      const id = req.headers['webhook-id'];
      if (!seen.has(id)) {
        seen.add(id);
        console.log(`verified ${event.type} ${id} ${JSON.stringify(event.data)}`);
      }
      res.writeHead(204).end();
    } catch (error) {
      console.log(`refused: ${error.message}`);
      res.writeHead(400).end();
    }
  });
});
server.listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () => console.log(`listening on ${server.address().port}`));
