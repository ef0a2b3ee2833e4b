import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { PerIpWindow } from '../protection/public-route-limits/per-ip-window.js';
import { PLAN_KEY_LIMITS } from '../teams/plans.js';
import type { Team } from '../teams/team.entity.js';
import type { OidcClient } from './oidc-client.js';

/**
 * Logins a client's pages may start per minute: its team plan's per-minute default for a key
 * (docs/oidc.md, "Limits"), since a login page starts a session as a key's start does. Counted in
 * this process's memory like the per-address limits: a brake on a flood through one client's public
 * authorization endpoint, not billing.
 */
@Injectable()
export class OidcLoginStartRate {
  private readonly window = new PerIpWindow(Number.POSITIVE_INFINITY);

  constructor(private readonly clock: Clock) {}

  /** Counts one start; the seconds until the client may start again when it is over its plan, else null. */
  take(client: OidcClient, team: Team): number | null {
    const limit = PLAN_KEY_LIMITS[team.plan].defaults.perMinuteLimit;
    if (limit === null) return null;
    return this.window.take(client.clientId, this.clock.nowMs(), limit);
  }
}
