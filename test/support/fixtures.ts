import type { INestApplicationContext } from '@nestjs/common';
import type { ApiKeyEnvironment } from '../../src/api-keys/api-key-format.js';
import type { ApiKeyScope } from '../../src/api-keys/api-key.entity.js';
import { ApiKeysService, type CreateApiKeyInput } from '../../src/api-keys/api-keys.service.js';
import type { Plan } from '../../src/teams/plans.js';
import { TeamsService } from '../../src/teams/teams.service.js';

export interface TeamKeyOptions {
  plan?: Plan;
  /** Undefined: no subscription; null: one that does not end. Default: does not end. */
  subscriptionEndsAt?: Date | null;
  environment?: ApiKeyEnvironment;
  scopes?: ApiKeyScope[];
  key?: Partial<CreateApiKeyInput>;
}

/** A team with one API key, made through the same services the CLI uses. */
export async function createTeamWithKey(app: INestApplicationContext, options: TeamKeyOptions = {}) {
  const team = await app.get(TeamsService).create({
    name: `team-${Math.random().toString(36).slice(2, 8)}`,
    plan: options.plan ?? 'pro',
    subscriptionEndsAt: 'subscriptionEndsAt' in options ? options.subscriptionEndsAt : null,
  });
  const { apiKey, key } = await app.get(ApiKeysService).create({
    teamId: team.id,
    environment: options.environment ?? 'test',
    scopes: options.scopes ?? ['sessions:read', 'sessions:write'],
    ...options.key,
  });
  return { team, apiKey, key };
}
