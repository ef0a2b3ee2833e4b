import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Level, Logger } from 'pino';
import type { HttpMetrics } from '../../metrics/http-metrics.js';
import { redactUrl } from './redact-url.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Members a route adds to its request's log line (forward authentication: the original request, redacted). */
    logExtra?: Record<string, unknown>;
  }
}

const levelOf = (statusCode: number): Level => (statusCode >= 500 ? 'error' : statusCode >= 400 ? 'warn' : 'info');

/**
 * One line per answered request, in pino-http's shape (`req`, `res`, `responseTime`), written from a
 * Fastify hook. Not pino-http behind Nest's middleware bridge: that cost 65 µs of CPU per request
 * even when the line was not written (docs/benchmarks.md). The same hook records the HTTP metrics
 * (docs/operations.md), so each answer costs one hook, not two.
 */
export function logRequests(fastify: FastifyInstance, logger: Logger, metrics?: HttpMetrics): void {
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    // routeOptions.url is the template (`/api/v1/auth/:sessionId/poll`); undefined when no route matched.
    metrics?.observe(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime);
    const level = levelOf(reply.statusCode);
    if (logger.isLevelEnabled(level)) {
      logger[level](
        {
          // originalUrl: a mounted library (oidc-provider) sees the URL without its prefix (docs/oidc.md, "Mounting").
          req: { id: request.id, method: request.method, url: redactUrl(request.originalUrl), remoteAddress: request.ip },
          res: { statusCode: reply.statusCode },
          responseTime: Math.round(reply.elapsedTime * 10) / 10,
          ...request.logExtra,
        },
        'request completed',
      );
    }
    done();
  });
}
