import { DomainException } from '../common/problem-details/domain.exception.js';
import type { Team } from './team.entity.js';

/** docs/api.md: a team without a subscription, or whose subscription ended, gets 403 on every endpoint. */
export function assertActiveSubscription(team: Team, now: Date): void {
  if (!team.hasSubscription) throw new DomainException('subscription_required', 'The team has no subscription.');
  if (team.subscriptionEndsAt && team.subscriptionEndsAt <= now) {
    throw new DomainException('subscription_expired', `The team's subscription ended at ${team.subscriptionEndsAt.toISOString()}.`);
  }
}
