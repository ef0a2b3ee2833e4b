import type { FastifyRequest } from 'fastify';

export type PresentedCredential = { kind: 'apiKey'; value: string } | { kind: 'bearer'; value: string };

/** What a request carries that may be a credential, wherever it was read from (our request or a gateway's original). */
export interface CredentialSources {
  apiKeyHeader: unknown;
  queryKey: unknown;
  authorization: string | undefined;
}

/** `x-api-key`, then `?key=` (docs/api.md: experiments only), then a bearer token. */
export function credentialFrom(sources: CredentialSources): PresentedCredential | null {
  const { apiKeyHeader, queryKey, authorization } = sources;
  if (typeof apiKeyHeader === 'string' && apiKeyHeader.length > 0) return { kind: 'apiKey', value: apiKeyHeader };
  if (typeof queryKey === 'string' && queryKey.length > 0) return { kind: 'apiKey', value: queryKey };
  const bearer = authorization && /^Bearer\s+(\S+)$/i.exec(authorization);
  if (bearer) return { kind: 'bearer', value: bearer[1] };
  return null;
}

/** The credential of a request to one of our own routes. */
export function readCredential(request: FastifyRequest): PresentedCredential | null {
  return credentialFrom({
    apiKeyHeader: request.headers['x-api-key'],
    queryKey: (request.query as Record<string, unknown> | undefined)?.key,
    authorization: request.headers.authorization,
  });
}
