import type { ArgumentMetadata, INestApplicationContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { ApiKeyPrincipal } from '../../auth/principal.js';
import { RequestAuthorizer, routeAccessOf, type RouteAccess } from '../../auth/request-authorizer.js';
import { apiValidationPipe } from '../../common/validation/api-validation-pipe.js';
import { applyKeyLimits } from '../../protection/rate-limits/key-limits.js';
import { RateLimitsService } from '../../protection/rate-limits/rate-limits.service.js';
import { QrQueryDto } from './dto/qr-query.dto.js';
import { StartSessionDto } from './dto/start-session.dto.js';
import { SessionsController } from './sessions.controller.js';

type Params = Record<string, string>;
type Call = (controller: SessionsController, principal: ApiKeyPrincipal, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const validated = <T>(value: unknown, metatype: new () => T, type: ArgumentMetadata['type']): Promise<T> =>
  apiValidationPipe.transform(value, { type, metatype }) as Promise<T>;

/**
 * The routes every relying party calls in a loop (docs/architecture.md, "Hot routes"), each the call of
 * its controller method with the arguments Nest's parameter decorators would give it. The session id
 * and provider are plain strings (the global pipe passes them as they are); bodies and queries go
 * through the global pipe's own instance.
 */
const HOT_ROUTES: Record<string, { method: keyof SessionsController; call: Call }> = {
  'POST /api/v1/auth/:provider/start': {
    method: 'start',
    call: async (controller, principal, request) =>
      controller.start(principal, (request.params as Params).provider, await validated(request.body, StartSessionDto, 'body')),
  },
  'POST /api/v1/auth/:sessionId/poll': {
    method: 'poll',
    call: (controller, principal, request) => controller.poll(principal, (request.params as Params).sessionId),
  },
  'GET /api/v1/auth/:sessionId/qr': {
    method: 'qr',
    call: async (controller, principal, request, reply) => {
      const query = await validated(request.query, QrQueryDto, 'query');
      await controller.qr(principal, (request.params as Params).sessionId, query, request.headers.accept, reply);
      return reply;
    },
  },
};

/**
 * Serves the hot routes without Nest's per-request pipeline (router proxy, execution contexts, metadata
 * reads, the guard and pipe chains: about 30 µs of a poll's CPU, docs/performance.md). Nest
 * still registers them, so routing, the OpenAPI document and HEAD stay its; Fastify's onRoute hook then
 * swaps in a handler that runs the same pieces in the same order, each the code Nest's run: the
 * AuthGuard's RequestAuthorizer with the access the route's decorators declare (read once), the
 * RateLimitGuard's applyKeyLimits, the global ValidationPipe, the controller method. Errors reach the
 * ProblemDetailsFilter through Nest's Fastify error handler, as the protection hooks' do. Fastify's own
 * hooks (IP block, input guard, request id, log, metrics) run for every route either way.
 * Call before app.init(), which registers the routes.
 */
export function serveHotRoutes(app: INestApplicationContext, fastify: FastifyInstance): void {
  const reflector = new Reflector();
  fastify.addHook('onRoute', (route) => {
    const hot = typeof route.method === 'string' ? HOT_ROUTES[`${route.method} ${route.url}`] : undefined;
    if (!hot) return;
    const controller = app.get(SessionsController);
    const access = routeAccessOf(reflector, [Reflect.get(SessionsController.prototype, hot.method), SessionsController]);
    if (!access || access.management || access.either) throw new Error(`A hot route must be an API-key route: ${route.url}`);
    route.handler = hotHandler(app, access, controller, hot.call);
  });
}

function hotHandler(app: INestApplicationContext, access: RouteAccess, controller: SessionsController, call: Call): RouteHandlerMethod {
  const authorizer = app.get(RequestAuthorizer, { strict: false });
  const rateLimits = app.get(RateLimitsService, { strict: false });
  return async function hotRoute(request, reply) {
    // An API-key route: the authorizer refuses any other principal (endpoint_not_available).
    const principal = (await authorizer.authorize(request, access)) as ApiKeyPrincipal;
    await applyKeyLimits(rateLimits, request, reply);
    return call(controller, principal, request, reply);
  };
}
