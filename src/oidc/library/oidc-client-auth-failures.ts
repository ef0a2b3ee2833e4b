import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * A failed client authentication (a wrong secret or assertion, an unknown client) is a guessed
 * credential like a wrong API key: it counts toward the caller's IP block (docs/protection.md). Koa
 * sends the answer after this middleware returns, so the 10th failure blocks the 11th request.
 */
export function countClientAuthFailures(recordFailure: (ip: string) => Promise<void>) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    await next();
    // The mount gives the provider Fastify's client address (TRUST_PROXY applied) as ctx.ip.
    if (ctx.status === 401 && (ctx.body as { error?: unknown } | undefined)?.error === 'invalid_client') await recordFailure(ctx.ip);
  };
}
