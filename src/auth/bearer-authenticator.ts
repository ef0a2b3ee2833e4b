import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { assertActiveSubscription } from '../teams/subscription.js';
import { TokenRevocations } from '../tokens/token-revocations.js';
import { TokensService } from '../tokens/tokens.service.js';
import { UsersService } from '../users/users.service.js';
import type { UserPrincipal } from './principal.js';

/** A team member's bearer token → the user and team, checked as the API key path checks a key. */
@Injectable()
export class BearerAuthenticator {
  constructor(
    private readonly tokens: TokensService,
    private readonly revocations: TokenRevocations,
    private readonly users: UsersService,
    private readonly clock: Clock,
  ) {}

  async authenticate(token: string): Promise<UserPrincipal> {
    const { userId, teamId, tokenId } = await this.tokens.verify(token);
    // A signed token outlives nothing: a deleted user, one moved to another team or a logout ends it at once.
    const [user, revoked] = await Promise.all([this.users.findWithTeam(userId), this.revocations.isRevoked(tokenId)]);
    if (!user || user.teamId !== teamId || revoked) throw new DomainException('invalid_token', 'The bearer token is not valid.');
    assertActiveSubscription(user.team, this.clock.now());
    return { kind: 'user', user, team: user.team };
  }
}
