import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { featuresOf } from '../teams/plans.js';
import { assertActiveSubscription } from '../teams/subscription.js';
import type { Team } from '../teams/team.entity.js';
import { TeamsService } from '../teams/teams.service.js';
import { OidcClientCache } from './clients/oidc-client-cache.js';

/** The plan feature OIDC clients come with (docs/oidc.md, "Plans"): the management API needs it to register one. */
export const OIDC_FEATURE = 'pro';

/**
 * Why a team's OIDC clients may not log anyone in now, in the words and code the API gives an API
 * key of the team (docs/oidc.md, "Plans"); undefined when they may.
 */
export function teamRefusal(team: Team, now: Date): string | undefined {
  try {
    assertActiveSubscription(team, now);
  } catch (error) {
    if (error instanceof DomainException) return `${error.detail ?? error.code} (${error.code})`;
    throw error;
  }
  if (!featuresOf(team).has(OIDC_FEATURE)) return `The team's plan lacks ${OIDC_FEATURE}. (feature_required)`;
  return undefined;
}

/**
 * Checked at every step of an OpenID login and CIBA request (the login page, its end, the
 * backchannel start and end, the token endpoint, userinfo): a team whose subscription ended or whose
 * plan lost the feature stops there, as its API keys do.
 */
@Injectable()
export class OidcTeamAccess {
  constructor(
    private readonly teams: TeamsService,
    private readonly clients: OidcClientCache,
    private readonly clock: Clock,
  ) {}

  /** The reason the team's clients are refused, or undefined: the team as it is now. */
  async refusalOf(teamId: string): Promise<string | undefined> {
    return teamRefusal(await this.teams.get(teamId), this.clock.now());
  }

  /**
   * The same for a request of the client itself (the token endpoint, userinfo: every request of a
   * relying party), with the team as cached with the client, so a plan change or a subscription ended
   * early takes effect there within the cache's 5 s (docs/oidc.md, "Plans"). An end date that passes
   * is seen at once: it is compared with the clock at every call.
   */
  async refusalOfClient(clientId: string, teamId: string): Promise<string | undefined> {
    return teamRefusal(await this.clients.teamOf(clientId, teamId), this.clock.now());
  }
}
