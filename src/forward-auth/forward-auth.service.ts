import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { assertAccess } from '../auth/access-checks.js';
import { credentialFrom } from '../auth/credentials.js';
import { PrincipalAuthenticator } from '../auth/principal-authenticator.js';
import type { Principal } from '../auth/principal.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { isDatabaseUnavailable } from '../database/database-unavailable.js';
import { forwardAuthConfig, type ForwardAuthConfig } from './forward-auth.config.js';
import { serverConfig, type ServerConfig } from '../config/server.config.js';
import { assertCleanInput } from '../protection/input-guard/input-guard-refusal.js';
import { AddressList } from '../protection/ip-blocks/address-list.js';
import { IpBlocksService } from '../protection/ip-blocks/ip-blocks.service.js';
import { rateLimitRefusal } from '../protection/rate-limits/rate-limit-refusal.js';
import { RateLimitsService } from '../protection/rate-limits/rate-limits.service.js';
import { featuresOf } from '../teams/plans.js';
import { clientIpOf, queryKeyOf, readOriginalRequest, type ForwardAuthGateway, type OriginalRequest } from './original-request.js';
import { RouteMatcher } from './route-matcher.js';
import type { PolicyRoute } from './route-policy.js';

/**
 * One decision of forward authentication (docs/forward-auth.md): the checks of our own routes, in
 * their order (docs/protection.md), on the original request a gateway asks about. Each step is the
 * service our routes use; a known API key costs no database round trip (the key cache, the allowance).
 */
@Injectable()
export class ForwardAuthService {
  private readonly routes: RouteMatcher;
  private readonly trustedProxies: AddressList;
  private readonly gateway: ForwardAuthGateway;

  constructor(
    private readonly ipBlocks: IpBlocksService,
    private readonly authenticator: PrincipalAuthenticator,
    private readonly rateLimits: RateLimitsService,
    @Inject(forwardAuthConfig.KEY) config: ForwardAuthConfig,
    @Inject(serverConfig.KEY) server: ServerConfig,
  ) {
    this.routes = new RouteMatcher(config.routes);
    this.trustedProxies = new AddressList(server.trustProxy);
    this.gateway = config.gateway;
  }

  /** The request the gateway asks about (400 when the gateway does not say, or says it twice). */
  originalOf(request: FastifyRequest): OriginalRequest {
    return readOriginalRequest(request, this.gateway);
  }

  /** The policy route of an original request, or null when the policy does not list it. */
  routeOf(original: OriginalRequest): PolicyRoute | null {
    return this.routes.match(original.method, original.path);
  }

  /** The headers of an allowed request; throws the refusal otherwise. */
  async decide(request: FastifyRequest): Promise<Record<string, string>> {
    const original = this.originalOf(request);
    const clientIp = clientIpOf(request, this.trustedProxies);
    // 1. IP block (in memory), 2. input guard on the original path and query (the body never comes here).
    await this.ipBlocks.assertNotBlocked(clientIp);
    assertCleanInput({ url: original.uri });
    // 3. Authentication, 4. key state and subscription.
    const credential = credentialFrom({
      apiKeyHeader: request.headers['x-api-key'],
      queryKey: queryKeyOf(original.query),
      authorization: request.headers.authorization,
    });
    if (!credential) throw new DomainException('missing_token', 'Send an API key in the x-api-key header, or a bearer token.');
    let principal: Principal;
    try {
      principal = await this.authenticator.authenticate(credential);
    } catch (error) {
      // Counted before the refusal is answered, so the 10th failure blocks the 11th request (docs/protection.md).
      if (error instanceof DomainException && error.options.failedAttempt) await this.ipBlocks.recordFailure(clientIp);
      throw error;
    }
    // 5. Endpoint kind, scope, feature: a route the policy does not list is open to no one.
    const route = this.routeOf(original);
    if (!route)
      throw new DomainException('endpoint_not_available', `The gateway's policy lists no route ${original.method} for this path.`);
    assertAccess(principal, route.access);
    // 6. The key's limits count these requests like any other.
    const headers = identityHeaders(principal);
    if (principal.kind === 'apiKey') {
      // Our database away: the upstream does not need it, so its requests go through uncounted, as on any
      // failure of the limits' store (docs/protection.md, "When the store fails").
      const decision = await this.rateLimits.consume(principal.apiKey, clientIp).catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) return null;
        throw error;
      });
      if (decision && !decision.accepted) throw rateLimitRefusal(decision);
      if (decision) Object.assign(headers, decision.headers);
    }
    return headers;
  }
}

/**
 * What the upstream learns of the caller (docs/forward-auth.md, "Identity headers"). Every header is
 * always sent, empty where it does not apply, so a gateway that copies them overwrites whatever the
 * client sent under those names.
 */
function identityHeaders(principal: Principal): Record<string, string> {
  const apiKey = principal.kind === 'apiKey' ? principal.apiKey : null;
  return {
    'x-eidgw-team': principal.team.id,
    'x-eidgw-environment': apiKey?.environment ?? '',
    'x-eidgw-key': apiKey?.id ?? '',
    'x-eidgw-user': principal.kind === 'user' ? principal.user.id : '',
    'x-eidgw-features': [...featuresOf(principal.team)].sort().join(','),
  };
}
