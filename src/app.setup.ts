import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { PinoNestLogger } from './common/logging/pino-nest-logger.js';
import { requestHook, sendHook } from './common/http/sync-hooks.js';
import { requestIdOf } from './common/logging/request-id.js';
import { sendProblem } from './common/problem-details/problem-document.js';
import { drainOnSignals, trackRequestsForDrain } from './common/shutdown/graceful-shutdown.js';
import type { Env } from './app.env.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';
import { markInertBodyFields } from './protection/input-guard/inert-body-fields.js';
import { serveHotRoutes } from './sessions/api/hot-routes.js';
import { assertSignFieldSizes, SIGN_INERT_FIELDS, SIGN_ROUTES } from './sessions/api/sign-body-sizes.js';

// Our JSON bodies are small (userVisibleData ≤ 1,500 characters, metadata ≤ 1 KiB).
const BODY_LIMIT_BYTES = 64 * 1024;
// Except a signature's: a text that encodes to 40,000 base64 characters (up to 6 bytes a byte once
// JSON-escaped) and 200,000 characters of hidden data (docs/api.md, "Signing and the phone channel").
const SIGN_BODY_LIMIT_BYTES = 384 * 1024;
// A digital ID card's QR and nothing else (docs/idcard.md).
const ID_CARD_BODY_LIMIT_BYTES = 2 * 1024;
const ID_CARD_ROUTES: ReadonlySet<string> = new Set(['/api/v1/idcard/:provider/verify', '/kiosk/counter/verify']);

export function createFastifyAdapter(env: Pick<Env, 'TRUST_PROXY' | 'REQUEST_TIMEOUT'>): FastifyAdapter {
  const adapter = new FastifyAdapter({
    // Slow clients (docs/operations.md): the headers and body must arrive within REQUEST_TIMEOUT, and an
    // idle keep-alive connection closes after as long. Node reads them when it creates the server (hence
    // `http`) and checks once a second rather than every 30 s.
    requestTimeout: env.REQUEST_TIMEOUT,
    keepAliveTimeout: env.REQUEST_TIMEOUT,
    http: { requestTimeout: env.REQUEST_TIMEOUT, connectionsCheckingInterval: 1000 },
    // X-Forwarded-For is believed only from the proxies named in TRUST_PROXY (docs/protection.md).
    trustProxy: env.TRUST_PROXY.length > 0 ? env.TRUST_PROXY : false,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestIdOf,
    // Errors Fastify's router raises before any hook (malformed URL encoding, an over-long path
    // segment) get problem details too; the detail never echoes the URL.
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      sendProblem(reply, {
        type: 'about:blank',
        title: tooLong ? 'URI Too Long' : 'Bad Request',
        status: tooLong ? 414 : 400,
        detail: tooLong ? 'A path segment is too long.' : 'The URL is malformed.',
      });
    },
  });
  const fastify = adapter.getInstance();
  fastify.addHook('onRoute', (route) => {
    if (SIGN_ROUTES.has(route.url)) route.bodyLimit = SIGN_BODY_LIMIT_BYTES;
    if (ID_CARD_ROUTES.has(route.url)) route.bodyLimit = ID_CARD_BODY_LIMIT_BYTES;
  });
  // Registered before the input guard's hook, so it runs first: see sign-body-sizes.ts.
  fastify.addHook(
    'preValidation',
    requestHook((request) => {
      if (!SIGN_ROUTES.has(request.routeOptions.url ?? '')) return;
      assertSignFieldSizes(request.body);
      markInertBodyFields(request, SIGN_INERT_FIELDS);
    }),
  );
  return adapter;
}

/**
 * Everything main.ts and the e2e tests share, so tests run the production pipeline. With
 * `shutdownTimeoutMs` (main.ts) SIGTERM drains the process and exits 0 (docs/reliability.md);
 * without, Nest's own signal hooks close the application.
 */
export async function configureApp(
  app: NestFastifyApplication,
  options: { shutdownTimeoutMs?: number } = {},
): Promise<NestFastifyApplication> {
  app.useLogger(app.get(PinoNestLogger));
  app.flushLogs();
  if (options.shutdownTimeoutMs === undefined) app.enableShutdownHooks();
  const fastify = app.getHttpAdapter().getInstance();
  const requests = trackRequestsForDrain(app);
  // Before app.init(): its onRoute hook takes over the routes init registers (docs/architecture.md, "Hot routes").
  serveHotRoutes(app, fastify);
  fastify.addHook(
    'onSend',
    sendHook((request, reply, payload) => {
      reply.header('x-request-id', request.id);
      return payload;
    }),
  );

  // Built on the first request to /docs, not at start-up (docs/performance.md, "Start-up").
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'docs/json' });

  await app.init();
  // Without ready() a request through supertest fails inside Fastify's hooks and then hangs.
  await fastify.ready();
  if (options.shutdownTimeoutMs !== undefined) drainOnSignals(app, requests, options.shutdownTimeoutMs);
  return app;
}
