import type { Logger } from '@nestjs/common';
import * as client from 'openid-client';
import type { CompletedIdentity } from '../eid-provider.js';
import { acrAsAsked, userFromClaims } from './upstream-claims.js';
import { upstreamEvidenceOf } from './upstream-evidence.js';
import type { UpstreamConfig } from './upstream-oidc.env.js';

/**
 * The identity of an upstream's token answer, from a browser sign-in or a backchannel request alike
 * (docs/upstream-oidc.md): null, logged without values, when its acr is not the one asked for or it
 * names nobody.
 */
export function identityOfTokens(
  upstream: UpstreamConfig,
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
  logger: Logger,
): CompletedIdentity | null {
  const claims = (tokens.claims() ?? {}) as Record<string, unknown>;
  // An encrypted id token's evidence is its inner signed token: the signature is what proves it.
  const decrypted = client.getDecryptedResponses(tokens);
  const signed = (typeof decrypted === 'object' ? decrypted.id_token?.token_endpoint : undefined) ?? tokens.id_token;
  if (!signed) {
    logger.error({ upstream: upstream.name }, 'The upstream answered without an id token');
    return null;
  }
  if (!acrAsAsked(claims, upstream)) {
    logger.error({ upstream: upstream.name, acr: String(claims.acr).slice(0, 64) }, 'The upstream answered another acr than asked for');
    return null;
  }
  const user = userFromClaims(claims, upstream);
  if (!user) {
    logger.error(
      { upstream: upstream.name },
      'The id token carries no personal number or national identifier: check the upstream claims mapping',
    );
    return null;
  }
  return { user, evidence: upstreamEvidenceOf(signed, claims) };
}
