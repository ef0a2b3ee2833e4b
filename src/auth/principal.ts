import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { ApiKey } from '../api-keys/api-key.entity.js';
import type { Team } from '../teams/team.entity.js';
import type { User } from '../users/user.entity.js';

/** An application calling a public API endpoint with its key. */
export type ApiKeyPrincipal = { kind: 'apiKey'; apiKey: ApiKey; team: Team };
/** A team member calling the management API with the bearer token of an OTP login. */
export type UserPrincipal = { kind: 'user'; user: User; team: Team };

/** Who is calling: set by the AuthGuard on every authenticated request. */
export type Principal = ApiKeyPrincipal | UserPrincipal;

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<FastifyRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});
