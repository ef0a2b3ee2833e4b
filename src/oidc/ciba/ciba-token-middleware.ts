import type { KoaContextWithOIDC } from 'oidc-provider';
import type { SessionView } from '../../sessions/session-view.js';
import type { CibaLink, CibaRecords } from './ciba-records.js';
import { CIBA_GRANT_TYPE, CIBA_POLL_INTERVAL_S } from './ciba-request.js';

export interface CibaTokenDeps {
  records: Pick<CibaRecords, 'find' | 'polled'>;
  settle: (link: CibaLink) => Promise<SessionView | undefined>;
  now?: () => number;
}

type OAuthBody = { error?: string; error_description?: string };

/**
 * Around the token endpoint for the CIBA grant (docs/oidc.md, "CIBA"). Before the library
 * answers, the session is collected if due and the request settled if the session has ended, so a
 * poll never waits on the background collector. After it, what the library leaves to us: the
 * hintCode in authorization_pending, slow_down for a client polling faster than the interval, and
 * expired_token for a request the store has already dropped. Only answers the library gave an
 * authenticated client of the request are rewritten.
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
    const at = now();
    const tooFast = link.lastPolledAt !== null && at - link.lastPolledAt < CIBA_POLL_INTERVAL_S * 1000;
    await deps.records.polled(link, at);
    const view = at < link.expiresAt ? await deps.settle(link) : undefined;
    await next();

    const answer = ctx.body as OAuthBody | undefined;
    if (ctx.status !== 400 || !answer?.error || ctx.oidc?.client?.clientId !== link.clientId) return;
    if (answer.error === 'authorization_pending') {
      ctx.body = tooFast
        ? { error: 'slow_down', error_description: `Poll at most every ${CIBA_POLL_INTERVAL_S} seconds` }
        : { error: 'authorization_pending', error_description: pendingDescription(view) };
    } else if ((answer.error === 'access_denied' || answer.error === 'expired_token') && !answer.error_description && view) {
      // The library keeps a result's error but not its description: the hintCode is told here.
      ctx.body = { error: answer.error, error_description: endedDescription(view, link) };
    } else if (answer.error === 'invalid_grant' && at >= link.expiresAt) {
      ctx.body = { error: 'expired_token', error_description: 'The backchannel authentication request has expired' };
    }
  };
}

function pendingDescription(view: SessionView | undefined): string {
  const hintCode = view && 'hintCode' in view ? view.hintCode : undefined;
  return `The e-ID session is pending (hintCode: ${hintCode ?? 'outstandingTransaction'})`;
}

function endedDescription(view: SessionView, link: CibaLink): string {
  const hintCode = ('hintCode' in view ? view.hintCode : undefined) ?? view.status;
  return `The e-ID ${link.operation === 'sign' ? 'signature' : 'login'} did not complete (hintCode: ${hintCode})`;
}
