import { jest } from '@jest/globals';
import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuthGuard } from '../../auth/auth.guard.js';
import { PrincipalAuthenticator } from '../../auth/principal-authenticator.js';
import type { Principal } from '../../auth/principal.js';
import { RequestAuthorizer } from '../../auth/request-authorizer.js';
import { Clock } from '../../common/clock/clock.js';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import { ProblemDetailsFilter } from '../../common/problem-details/problem-details.filter.js';
import { apiValidationPipe } from '../../common/validation/api-validation-pipe.js';
import { IpBlocksService } from '../../protection/ip-blocks/ip-blocks.service.js';
import { ProtectionHooks } from '../../protection/protection.hooks.js';
import type { RateLimitDecision } from '../../protection/rate-limits/rate-limit-decision.js';
import { RateLimitGuard } from '../../protection/rate-limits/rate-limit.guard.js';
import { RateLimitsService } from '../../protection/rate-limits/rate-limits.service.js';
import { QrRendererService } from '../../qr/qr-renderer.service.js';
import { serveHotRoutes } from './hot-routes.js';
import { SessionReader } from './session-reader.js';
import { SessionReturnsService } from './session-returns.service.js';
import { SessionsController } from './sessions.controller.js';
import { SessionsService } from './sessions.service.js';

const SESSION_ID = '0b7e9b1e-6f0c-4d8e-9a44-3f0e9d3c2a11';
const team = { id: 'team-1', plan: 'enterprise' };
const keyWith = (...scopes: string[]): Principal =>
  ({ kind: 'apiKey', apiKey: { id: `key-${scopes.join('-')}`, environment: 'test', scopes }, team }) as unknown as Principal;
const PRINCIPALS: Record<string, Principal> = {
  reader: keyWith('sessions:read', 'sessions:write'),
  writeOnly: keyWith('sessions:write'),
  readOnly: keyWith('sessions:read'),
  member: { kind: 'user', user: { id: 'user-1' }, team } as unknown as Principal,
};

/** What the stubs answer; each test sets what it needs. */
const world = {
  blocked: false,
  decision: null as RateLimitDecision | null,
  authenticated: [] as string[],
};

@Module({
  controllers: [SessionsController],
  providers: [
    RequestAuthorizer,
    ProtectionHooks,
    {
      provide: PrincipalAuthenticator,
      useValue: {
        authenticate: ({ value }: { value: string }) => {
          world.authenticated.push(value);
          const principal = PRINCIPALS[value];
          if (!principal) throw new DomainException('invalid_api_key', 'The API key is not valid.', { failedAttempt: true });
          return Promise.resolve(principal);
        },
      },
    },
    {
      provide: IpBlocksService,
      useValue: {
        assertNotBlocked: () => {
          if (world.blocked) throw new DomainException('ip_blocked', 'Blocked.', { headers: { 'retry-after': '60' } });
          return Promise.resolve();
        },
        recordFailure: () => Promise.resolve(),
      },
    },
    { provide: RateLimitsService, useValue: { consume: () => Promise.resolve(world.decision) } },
    {
      provide: SessionsService,
      useValue: {
        poll: (_principal: unknown, sessionId: string) =>
          sessionId === SESSION_ID
            ? Promise.resolve({ sessionId, status: 'pending', hintCode: 'outstandingTransaction' })
            : Promise.reject(new DomainException('session_not_found', 'No such session.')),
        start: (_principal: unknown, provider: string, body: { endUserIp: string }) =>
          Promise.resolve({ sessionId: SESSION_ID, provider, ip: body.endUserIp, bodyClass: body.constructor.name }),
      },
    },
    {
      provide: SessionReader,
      useValue: {
        pendingForQr: (_principal: unknown, sessionId: string) =>
          sessionId === SESSION_ID
            ? Promise.resolve({
                session: { id: sessionId, status: 'pending', orderTime: new Date(0) },
                qr: { kind: 'animated', frameAt: (qrTime: number) => `bankid.token.${qrTime}.hmac` },
              })
            : Promise.reject(new DomainException('session_not_found', 'No such session.')),
      },
    },
    { provide: SessionReturnsService, useValue: {} },
    { provide: QrRendererService, useValue: { render: () => Buffer.from('png') } },
    { provide: Clock, useValue: { now: () => new Date(3_000), nowMs: () => 3_000 } },
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
    { provide: APP_FILTER, useClass: ProblemDetailsFilter },
    { provide: APP_PIPE, useValue: apiValidationPipe },
  ],
})
class HotRoutesTestModule {}

async function appWith(hotRoutes: boolean): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(HotRoutesTestModule, new FastifyAdapter(), { logger: false });
  if (hotRoutes) serveHotRoutes(app, app.getHttpAdapter().getInstance());
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

type Request = { method: 'GET' | 'POST'; url: string; key?: string; body?: unknown };

async function answer(app: NestFastifyApplication, request: Request) {
  const response = await app.inject({
    method: request.method,
    url: request.url,
    headers: { ...(request.key ? { 'x-api-key': request.key } : {}), ...(request.body ? { 'content-type': 'application/json' } : {}) },
    ...(request.body ? { payload: JSON.stringify(request.body) } : {}),
  });
  const { date: _date, ...headers } = response.headers;
  return { status: response.statusCode, headers, body: response.body };
}

const poll = (key?: string, id = SESSION_ID): Request => ({ method: 'POST', url: `/api/v1/auth/${id}/poll`, key });
const limitHeaders = { 'ratelimit-limit': '100', 'ratelimit-remaining': '0', 'ratelimit-reset': '30' };

describe('hot routes', () => {
  let nest: NestFastifyApplication;
  let hot: NestFastifyApplication;

  beforeAll(async () => {
    [nest, hot] = await Promise.all([appWith(false), appWith(true)]);
  });
  afterAll(() => Promise.all([nest.close(), hot.close()]));
  beforeEach(() => Object.assign(world, { blocked: false, decision: null, authenticated: [] }));

  const cases: [string, () => void, Request, number][] = [
    ['a pending poll', () => undefined, poll('reader'), 200],
    ['no key', () => undefined, poll(), 401],
    ['an unknown key', () => undefined, poll('nobody'), 401],
    ['a key without sessions:read', () => undefined, poll('writeOnly'), 403],
    ['a malformed session id', () => undefined, poll('reader', 'not-a-uuid'), 404],
    ['a blocked address', () => (world.blocked = true), poll('reader'), 401],
    [
      'an exhausted limit',
      () =>
        (world.decision = {
          accepted: false,
          refusedBy: 'per_minute',
          retryAfterSeconds: 30,
          headers: { ...limitHeaders, 'retry-after': '30' },
        }),
      poll('reader'),
      429,
    ],
    ['an admitted limited key', () => (world.decision = { accepted: true, headers: limitHeaders }), poll('reader'), 200],
    ['a QR frame as JSON', () => undefined, { method: 'GET', url: `/api/v1/auth/${SESSION_ID}/qr`, key: 'reader' }, 200],
    [
      'a QR query that fails validation',
      () => undefined,
      { method: 'GET', url: `/api/v1/auth/${SESSION_ID}/qr?size=x&y=1`, key: 'reader' },
      400,
    ],
    [
      'a start',
      () => undefined,
      { method: 'POST', url: '/api/v1/auth/simulator/start', key: 'writeOnly', body: { endUserIp: '192.0.2.1' } },
      200,
    ],
    [
      'a start body with an unknown member',
      () => undefined,
      { method: 'POST', url: '/api/v1/auth/simulator/start', key: 'writeOnly', body: { endUserIp: '192.0.2.1', extra: 1 } },
      400,
    ],
    [
      'a start without sessions:write',
      () => undefined,
      { method: 'POST', url: '/api/v1/auth/simulator/start', key: 'readOnly', body: { endUserIp: '192.0.2.1' } },
      403,
    ],
  ];

  it.each(cases)('should answer %s exactly as the Nest route does', async (_name, arrange, request, status) => {
    arrange();
    const before = await answer(nest, request);
    arrange();
    const after = await answer(hot, request);
    expect(after).toEqual(before);
    expect(after.status).toBe(status);
  });

  it("should answer a team member's token with endpoint_not_available on both", async () => {
    const request = { method: 'POST', url: `/api/v1/auth/${SESSION_ID}/poll`, headers: { 'x-api-key': 'member' } } as const;
    const [before, after] = [await nest.inject(request), await hot.inject(request)];
    expect(after.json()).toEqual(before.json());
    expect(after.json()).toMatchObject({ status: 403, code: 'endpoint_not_available' });
  });

  it('should serve the hot routes without running the Nest guards, and other routes through them', async () => {
    const guard = jest.spyOn(AuthGuard.prototype, 'canActivate');
    await answer(hot, poll('reader'));
    expect(guard).not.toHaveBeenCalled();
    await answer(hot, { method: 'POST', url: `/api/v1/auth/${SESSION_ID}/cancel`, key: 'reader' });
    expect(guard).toHaveBeenCalledTimes(1);
    guard.mockRestore();
  });
});
