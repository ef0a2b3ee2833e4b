import type { FastifyRequest } from 'fastify';

export type PresentedCredential = { kind: 'apiKey'; value: string } | { kind: 'bearer'; value: string };

/** The credential of a request: `x-api-key`, then `?key=` (docs/api.md: experiments only), then a bearer token. */
export function readCredential(request: FastifyRequest): PresentedCredential | null {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header.length > 0) return { kind: 'apiKey', value: header };
  const query = (request.query as Record<string, unknown> | undefined)?.key;
  if (typeof query === 'string' && query.length > 0) return { kind: 'apiKey', value: query };
  const authorization = request.headers.authorization;
  const bearer = authorization && /^Bearer\s+(\S+)$/i.exec(authorization);
  if (bearer) return { kind: 'bearer', value: bearer[1] };
  return null;
}
