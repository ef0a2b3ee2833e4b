import { featuresOf } from './plans.js';
import type { Team } from './team.entity.js';

export function teamView(team: Team) {
  return {
    id: team.id,
    name: team.name,
    plan: team.plan,
    features: [...featuresOf(team)],
    subscription: { active: team.hasSubscription, endsAt: team.subscriptionEndsAt },
    createdAt: team.createdAt,
  };
}
