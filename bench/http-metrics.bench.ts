// CPU per request of the HTTP metrics (docs/operations.md): the same Fastify route and request-log
// hook with and without the metrics, in one run, interleaved rounds (the machine is noisy). Requests go
// through fastify.inject, so no socket cost hides the difference. Run: npm run bench:metrics.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { Registry } from 'prom-client';
import { logRequests } from '../src/common/logging/request-log.js';
import { HttpMetrics } from '../src/metrics/http-metrics.js';
import { printSection } from './lib/report.js';

const REQUESTS = Number(process.env.REQUESTS ?? 20_000);
const ROUNDS = 5;

async function appWith(metrics: HttpMetrics | undefined): Promise<FastifyInstance> {
  const fastify = Fastify();
  // As in production: the request line is not written at `warn` for a 200.
  logRequests(fastify, pino({ level: 'warn' }), metrics);
  fastify.post('/api/v1/auth/:sessionId/poll', async (request) => ({
    sessionId: (request.params as { sessionId: string }).sessionId,
    status: 'pending',
  }));
  await fastify.ready();
  return fastify;
}

/** CPU microseconds (user + system) per request. */
async function measure(fastify: FastifyInstance, requests: number): Promise<number> {
  const ids = Array.from({ length: 64 }, () => randomUUID());
  const before = process.cpuUsage();
  for (let i = 0; i < requests; i++) await fastify.inject({ method: 'POST', url: `/api/v1/auth/${ids[i % ids.length]}/poll` });
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requests;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const without = await appWith(undefined);
  const metrics = new HttpMetrics(new Registry());
  const withMetrics = await appWith(metrics);
  await measure(without, 2_000);
  await measure(withMetrics, 2_000);
  const off: number[] = [];
  const on: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    off.push(await measure(without, REQUESTS));
    on.push(await measure(withMetrics, REQUESTS));
  }
  // The two metric updates alone, without Fastify around them.
  const calls = REQUESTS * 10;
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) metrics.observe('POST', '/api/v1/auth/:sessionId/poll', 200, 1.2);
  const used = process.cpuUsage(before);
  const observeUs = (used.user + used.system) / calls;
  const [offUs, onUs] = [median(off), median(on)];
  await printSection('HTTP metrics on the request hook', [
    `| Path | CPU per request |`,
    `|---|---|`,
    `| request-log hook, metrics off | ${offUs.toFixed(1)} µs |`,
    `| request-log hook, metrics on | ${onUs.toFixed(1)} µs |`,
    `| difference (median of ${ROUNDS} rounds of ${REQUESTS} requests) | ${(onUs - offUs).toFixed(2)} µs (${(((onUs - offUs) / offUs) * 100).toFixed(1)} %) |`,
    `| \`HttpMetrics.observe\` alone (counter + histogram) | ${observeUs.toFixed(2)} µs |`,
  ]);
  await Promise.all([without.close(), withMetrics.close()]);
}

await main();
