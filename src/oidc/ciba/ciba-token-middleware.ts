import type { KoaContextWithOIDC } from 'oidc-provider';
import { SLOW_DOWN_HINT } from '../../eid-providers/eid-provider.js';
import type { SessionView } from '../../sessions/session-view.js';
import type { CibaLink, CibaRecords } from './ciba-records.js';
import { CIBA_GRANT_TYPE, CIBA_POLL_INTERVAL_S } from './ciba-request.js';

export interface CibaTokenDeps {
  records: Pick<CibaRecords, 'find' | 'polled'>;
  settle: (link: CibaLink) => Promise<SessionView | undefined>;
  now?: () => number;
}

type OAuthBody = { error?: string; error_description?: string };

// The CIBA grant's own errors: the library answers them only to the authenticated client of the request.
const GRANT_ERRORS = new Set([
  'authorization_pending',
  'slow_down',
  'access_denied',
  'expired_token',
  'invalid_grant',
  'unauthorized_client',
]);

/**
 * Around the token endpoint for the CIBA grant (docs/oidc.md, "CIBA"), after the library has
 * authenticated the client and answered: the poll is recorded, a pending session is collected if
 * due and the request settled if the session has ended (so the next poll never waits on the
 * background collector), and what the library leaves to us is said: the hintCode in
 * authorization_pending, slow_down for a client polling faster than the interval, expired_token
 * for a request the store has already dropped.
 */
export function cibaTokenMiddleware(deps: CibaTokenDeps) {
  const now = deps.now ?? Date.now;
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    const body = (ctx.req as { body?: Record<string, unknown> }).body;
    const authReqId = body?.auth_req_id;
    if (ctx.method !== 'POST' || ctx.path !== '/token' || body?.grant_type !== CIBA_GRANT_TYPE || typeof authReqId !== 'string') {
      return next();
    }
    const link = await deps.records.find(authReqId);
    if (!link) return next();
    await next();

    // The grant's own answers come only after the library has authenticated the client: until then a
    // request with a stolen auth_req_id moves nothing (no poll recorded, no collect; docs/oidc.md, "CIBA").
    const answer = ctx.body as OAuthBody | undefined;
    const granted = ctx.status === 200 || (ctx.status === 400 && GRANT_ERRORS.has(answer?.error ?? ''));
    if (!granted || ctx.oidc?.client?.clientId !== link.clientId) return;
    const at = now();
    const tooFast = link.lastPolledAt !== null && at - link.lastPolledAt < CIBA_POLL_INTERVAL_S * 1000;
    await deps.records.polled(link, at);
    if (!answer?.error) return;
    if (answer.error === 'authorization_pending') {
      if (tooFast) {
        ctx.body = { error: 'slow_down', error_description: `Poll at most every ${CIBA_POLL_INTERVAL_S} seconds` };
        return;
      }
      // The session is collected if due and the request settled if it has ended: the next poll gets
      // the result without waiting on the background collector.
      const view = at < link.expiresAt ? await deps.settle(link) : undefined;
      // An upstream's own slow_down, passed through (docs/upstream-oidc.md, "CIBA").
      if (view?.status === 'pending' && 'hintCode' in view && view.hintCode === SLOW_DOWN_HINT) {
        ctx.body = { error: 'slow_down', error_description: 'The e-ID provider asks for slower polling' };
        return;
      }
      ctx.body = { error: 'authorization_pending', error_description: pendingDescription(view) };
    } else if ((answer.error === 'access_denied' || answer.error === 'expired_token') && !answer.error_description) {
      // A request settled before its description was kept (docs/oidc.md, "CIBA"): the hintCode is told here.
      const view = await deps.settle(link);
      if (view) ctx.body = { error: answer.error, error_description: endedDescription(view, link) };
    } else if (answer.error === 'invalid_grant' && at >= link.expiresAt) {
      ctx.body = { error: 'expired_token', error_description: 'The backchannel authentication request has expired' };
    }
  };
}

function pendingDescription(view: SessionView | undefined): string {
  if (view && view.status !== 'pending') return 'The e-ID session has ended: the next token request gets its result';
  const hintCode = view && 'hintCode' in view ? view.hintCode : undefined;
  return `The e-ID session is pending (hintCode: ${hintCode ?? 'outstandingTransaction'})`;
}

function endedDescription(view: SessionView, link: CibaLink): string {
  const hintCode = ('hintCode' in view ? view.hintCode : undefined) ?? view.status;
  return `The e-ID ${link.operation === 'sign' ? 'signature' : 'login'} did not complete (hintCode: ${hintCode})`;
}
