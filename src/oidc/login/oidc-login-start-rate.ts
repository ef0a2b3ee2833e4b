import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { PerIpWindow } from '../../protection/public-route-limits/per-ip-window.js';
import { PLAN_KEY_LIMITS } from '../../teams/plans.js';
import type { Team } from '../../teams/team.entity.js';
import type { OidcClient } from '../clients/oidc-client.js';

// A login costs the team what about ten key requests do: its start and the page's polls of it.
const REQUESTS_PER_LOGIN = 10;

/**
 * Logins a client's pages may start per minute: a tenth of its team plan's per-minute default for a
 * key (docs/oidc.md, "Limits"; pro 60, max 600, enterprise unlimited). Counted in this process's
 * memory like the per-address limits: a brake on a flood through one client's public authorization
 * endpoint, not billing.
 */
@Injectable()
export class OidcLoginStartRate {
  private readonly window = new PerIpWindow(Number.POSITIVE_INFINITY);

  constructor(private readonly clock: Clock) {}

  /** Counts one start; the seconds until the client may start again when it is over its plan, else null. */
  take(client: OidcClient, team: Team): number | null {
    const requests = PLAN_KEY_LIMITS[team.plan].defaults.perMinuteLimit;
    if (requests === null) return null;
    return this.window.take(client.clientId, this.clock.nowMs(), Math.max(1, Math.floor(requests / REQUESTS_PER_LOGIN)));
  }
}
