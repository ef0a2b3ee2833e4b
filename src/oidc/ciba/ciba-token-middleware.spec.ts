import type { KoaContextWithOIDC } from 'oidc-provider';
import { SLOW_DOWN_HINT } from '../../eid-providers/eid-provider.js';
import type { SessionView } from '../../sessions/session-view.js';
import type { CibaLink } from './ciba-records.js';
import { cibaTokenMiddleware } from './ciba-token-middleware.js';

const LINK: CibaLink = {
  authReqId: 'req-1',
  sessionId: 's-1',
  clientId: 'client-1',
  acr: 'urn:example:phoneid',
  provider: 'phoneid',
  operation: 'auth',
  channel: 'phone',
  expiresAt: 100_000,
  lastPolledAt: null,
};

function harness(link: CibaLink | undefined, view: Partial<SessionView> | undefined, at: number) {
  const saved: number[] = [];
  const middleware = cibaTokenMiddleware({
    records: { find: () => Promise.resolve(link), polled: (_link, polledAt) => Promise.resolve(void saved.push(polledAt)) },
    settle: () => Promise.resolve(view as SessionView | undefined),
    now: () => at,
  });
  const ctx = {
    method: 'POST',
    path: '/token',
    req: { body: { grant_type: 'urn:openid:params:grant-type:ciba', auth_req_id: 'req-1' } },
    status: 400,
    body: undefined as unknown,
    oidc: { client: { clientId: 'client-1' } },
  };
  return {
    saved,
    ctx,
    run: (answer: unknown) => middleware(ctx as unknown as KoaContextWithOIDC, () => Promise.resolve(void (ctx.body = answer))),
  };
}

describe('the CIBA token endpoint answers', () => {
  it('should name the hintCode in authorization_pending and record the poll', async () => {
    const { ctx, saved, run } = harness(LINK, { status: 'pending', hintCode: 'userCallConfirm' }, 1_000);
    await run({ error: 'authorization_pending', error_description: 'still pending' });
    expect(ctx.body).toEqual({
      error: 'authorization_pending',
      error_description: 'The e-ID session is pending (hintCode: userCallConfirm)',
    });
    expect(saved).toEqual([1_000]);
  });

  it('should answer slow_down to a poll closer than the interval to the last', async () => {
    const { ctx, run } = harness({ ...LINK, lastPolledAt: 500 }, { status: 'pending', hintCode: 'userSign' }, 1_000);
    await run({ error: 'authorization_pending' });
    expect(ctx.body).toMatchObject({ error: 'slow_down' });
  });

  it("should pass an upstream's slow_down on to a client polling at the interval", async () => {
    const { ctx, run } = harness({ ...LINK, lastPolledAt: 0 }, { status: 'pending', hintCode: SLOW_DOWN_HINT }, 5_000);
    await run({ error: 'authorization_pending' });
    expect(ctx.body).toMatchObject({ error: 'slow_down' });
  });

  it('should answer expired_token for a request the store has dropped after its expiry', async () => {
    const { ctx, run } = harness(LINK, undefined, 200_000);
    await run({ error: 'invalid_grant', error_description: 'backchannel authentication request not found' });
    expect(ctx.body).toMatchObject({ error: 'expired_token' });
  });

  it('should name the hintCode of a declined call in access_denied', async () => {
    const { ctx, run } = harness(LINK, { status: 'failed', hintCode: 'userDeclinedCall' }, 1_000);
    await run({ error: 'access_denied' });
    expect(ctx.body).toEqual({ error: 'access_denied', error_description: 'The e-ID login did not complete (hintCode: userDeclinedCall)' });
  });

  it('should record no poll and collect nothing for a request whose client failed authentication', async () => {
    let settled = 0;
    const saved: number[] = [];
    const middleware = cibaTokenMiddleware({
      records: { find: () => Promise.resolve(LINK), polled: (_link, at) => Promise.resolve(void saved.push(at)) },
      settle: () => Promise.resolve(void settled++),
      now: () => 1_000,
    });
    // The library names the client before it checks the secret: its answer says whether it passed.
    const ctx = {
      method: 'POST',
      path: '/token',
      req: { body: { grant_type: 'urn:openid:params:grant-type:ciba', auth_req_id: 'req-1' } },
      status: 401,
      body: undefined as unknown,
      oidc: { client: { clientId: 'client-1' } },
    };
    await middleware(ctx as unknown as KoaContextWithOIDC, () =>
      Promise.resolve(void (ctx.body = { error: 'invalid_client', error_description: 'client authentication failed' })),
    );
    expect(saved).toEqual([]);
    expect(settled).toBe(0);
    expect(ctx.body).toEqual({ error: 'invalid_client', error_description: 'client authentication failed' });
  });

  it('should leave the answer to another client alone', async () => {
    const { ctx, run } = harness(LINK, { status: 'pending', hintCode: 'userSign' }, 1_000);
    ctx.oidc.client.clientId = 'someone-else';
    await run({ error: 'invalid_grant', error_description: 'client mismatch' });
    expect(ctx.body).toEqual({ error: 'invalid_grant', error_description: 'client mismatch' });
  });
});
