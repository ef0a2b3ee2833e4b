import { All, Controller, Delete, Get, HttpCode, Options, Patch, Post, Put, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/access.decorators.js';
import { API_KEY_PROBLEMS, ApiProblems } from '../common/problem-details/api-problems.decorator.js';
import { ForwardAuthService } from './forward-auth.service.js';

const IDENTITY_HEADERS = {
  'X-Eidgw-Team': { description: "The caller's team id", schema: { type: 'string' } },
  'X-Eidgw-Environment': { description: "The API key's environment (live or test); absent for a member token", schema: { type: 'string' } },
  'X-Eidgw-Key': { description: "The API key's id; absent for a member token", schema: { type: 'string' } },
  'X-Eidgw-User': { description: "The member token's subject (user id); absent for an API key", schema: { type: 'string' } },
  'X-Eidgw-Features': { description: "The team's plan features, comma-separated", schema: { type: 'string' } },
  'RateLimit-Limit': { description: "The key's limits (docs/protection.md, Headers); with a limited key", schema: { type: 'string' } },
} as const;

/**
 * Forward authentication for gateways in front of other APIs (docs/forward-auth.md): nginx auth_request,
 * Caddy forward_auth and Traefik ForwardAuth call /forward-auth (any method); Envoy's ext_authz calls
 * /forward-auth + the original path with the original method. Public in our own pipeline: the decision
 * authenticates the original request itself.
 */
@ApiTags('forward-auth')
@Public()
@Controller('forward-auth')
export class ForwardAuthController {
  constructor(private readonly service: ForwardAuthService) {}

  @Get()
  @ApiOperation({
    summary: "A gateway's subrequest: may the original request pass?",
    description:
      'The original request comes from X-Original-Method + X-Original-URI (nginx) or X-Forwarded-Method + X-Forwarded-Uri + X-Forwarded-Host (Caddy, Traefik); any method is accepted, and Envoy ext_authz calls /forward-auth/{original path} with the original method. The credential is x-api-key, ?key= in the original URI, or a member bearer token. Allowed: 200 with an empty body and the identity headers. Refused: the problem details of the first check that refuses, in the order of checks of our own routes (docs/forward-auth.md).',
  })
  @ApiHeader({ name: 'X-Original-URI', required: false, description: 'nginx: the original path and query ($request_uri)' })
  @ApiHeader({ name: 'X-Original-Method', required: false, description: 'nginx: the original method' })
  @ApiHeader({ name: 'X-Forwarded-Uri', required: false, description: 'Caddy, Traefik: the original path and query' })
  @ApiHeader({ name: 'X-Forwarded-Method', required: false, description: 'Caddy, Traefik: the original method' })
  @ApiOkResponse({ description: 'Allowed; the gateway passes the identity headers to its upstream.', headers: IDENTITY_HEADERS })
  @ApiProblems(...API_KEY_PROBLEMS, 'invalid_token', 'feature_required')
  async decide(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    void reply.headers({ ...(await this.service.decide(request)), 'cache-control': 'no-store' });
  }

  // The same decision for every other method, and for Envoy's /forward-auth/{original path}; documented once above.
  @Post()
  @HttpCode(200)
  @ApiExcludeEndpoint()
  decidePost(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    return this.decide(request, reply);
  }

  @Put()
  @HttpCode(200)
  @ApiExcludeEndpoint()
  decidePut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    return this.decide(request, reply);
  }

  @Patch()
  @HttpCode(200)
  @ApiExcludeEndpoint()
  decidePatch(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    return this.decide(request, reply);
  }

  @Delete()
  @HttpCode(200)
  @ApiExcludeEndpoint()
  decideDelete(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    return this.decide(request, reply);
  }

  @Options()
  @HttpCode(200)
  @ApiExcludeEndpoint()
  decideOptions(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    return this.decide(request, reply);
  }

  @All('*')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  decideEnvoy(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    return this.decide(request, reply);
  }
}
