import type { Server } from 'node:http';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { sendProblem } from '../problem-details/problem-document.js';
import { problemType } from '../problem-details/error-codes.js';
import { Draining } from './draining.js';

/**
 * Answers requests that arrive on a kept-alive connection once the drain has begun with 503 and
 * `Connection: close`, and counts the requests in flight so the drain can wait for them.
 */
export function trackRequestsForDrain(app: NestFastifyApplication): { idle(): Promise<void> } {
  const draining = app.get(Draining);
  const fastify = app.getHttpAdapter().getInstance();
  const inFlight = new Set<unknown>();
  let wake: (() => void) | undefined;
  // Callback hooks, not async ones (docs/performance.md, "The pipeline every request pays").
  fastify.addHook('onRequest', (_request, reply, done) => {
    if (draining.active) {
      reply.header('connection', 'close');
      sendProblem(
        reply,
        {
          type: problemType('service_unavailable'),
          title: 'Service Unavailable',
          status: 503,
          detail: 'This instance is shutting down; retry.',
          code: 'service_unavailable',
        },
        { 'retry-after': '1' },
      );
      // Answered: the route never runs.
      return;
    }
    const raw = reply.raw;
    inFlight.add(raw);
    raw.once('close', () => {
      inFlight.delete(raw);
      if (inFlight.size === 0) wake?.();
    });
    done();
  });
  // An answer that leaves during the drain closes its connection behind it.
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (draining.active) reply.header('connection', 'close');
    done(null, payload);
  });
  return {
    idle: () =>
      inFlight.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            wake = resolve;
          }),
  };
}

/**
 * SIGTERM / SIGINT (docs/reliability.md, "SIGTERM"): stop accepting connections, end the kiosk
 * streams with a retry hint, let the requests in flight finish, then close the application (the
 * webhook dispatcher finishes and records the attempts it started, the pool closes) and exit 0.
 * Whatever is still running after `timeoutMs` is abandoned (exit 1): the outbox's leases make
 * another replica send those webhooks again under the same id.
 */
export function drainOnSignals(app: NestFastifyApplication, requests: { idle(): Promise<void> }, timeoutMs: number): void {
  const logger = new Logger('Shutdown');
  let started = false;
  const drain = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    logger.log(`${signal}: draining for up to ${timeoutMs} ms`);
    const deadline = setTimeout(() => {
      logger.error(`Shutdown did not finish within ${timeoutMs} ms; exiting with work abandoned`);
      process.exit(1);
    }, timeoutMs);
    deadline.unref();
    const server: Server = app.getHttpServer();
    server.close();
    server.closeIdleConnections();
    app.get(Draining).begin();
    requests
      .idle()
      .then(() => {
        // Connections whose last answer went out are idle now: close them so the server can close.
        server.closeIdleConnections();
        return app.close();
      })
      .then(
        () => {
          logger.log('Stopped');
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error instanceof Error ? error.message : String(error) }, 'Shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', drain);
  process.on('SIGINT', drain);
}
