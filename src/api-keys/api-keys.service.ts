import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { IsNull, type Repository } from 'typeorm';
import { TtlCache } from '../common/cache/ttl-cache.js';
import { Clock } from '../common/clock/clock.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { ValidationProblemException } from '../common/problem-details/validation-problem.exception.js';
import { PLAN_KEY_LIMITS, type PlanKeyLimits } from '../teams/plans.js';
import { assertActiveSubscription } from '../teams/subscription.js';
import { Team } from '../teams/team.entity.js';
import { TeamsService } from '../teams/teams.service.js';
import { ApiKeyChanges } from './api-key-changes.js';
import { generateApiKey, hashApiKey, parseApiKey, type ApiKeyEnvironment } from './api-key-format.js';
import { API_KEY_SCOPES, ApiKey, type ApiKeyMaxRisk, type ApiKeyScope } from './api-key.entity.js';

export interface CreateApiKeyInput {
  teamId: string;
  name?: string;
  environment?: ApiKeyEnvironment;
  scopes?: ApiKeyScope[];
  perMinuteLimit?: number;
  monthlyLimit?: number;
  ipLimit?: number;
  maxRisk?: ApiKeyMaxRisk;
  validUntil?: Date;
}

export interface AuthenticatedApiKey {
  apiKey: ApiKey;
  team: Team;
}

// Every API request authenticates; the cache saves a database round trip on each. Revoking or
// blocking reaches every replica's cache through ApiKeyChanges at once (docs/security.md); the TTL
// only bounds how long a key lives here without being read again.
const CACHE_TTL_MS = 5_000;
const CACHE_MAX_KEYS = 10_000;

@Injectable()
export class ApiKeysService {
  private readonly cache = new TtlCache<string, ApiKey>(CACHE_TTL_MS, CACHE_MAX_KEYS);

  constructor(
    @InjectRepository(ApiKey) private readonly apiKeys: Repository<ApiKey>,
    private readonly teams: TeamsService,
    private readonly clock: Clock,
    private readonly changes: ApiKeyChanges,
  ) {
    changes.onChange((apiKeyId) => (apiKeyId === null ? this.cache.clear() : this.cache.deleteWhere((cached) => cached.id === apiKeyId)));
  }

  /**
   * Creates a key as the operator (the CLI): any limits, beyond the plan's key cap too. The
   * returned `key` is the only time the secret exists outside the caller.
   */
  async create(input: CreateApiKeyInput): Promise<{ apiKey: ApiKey; key: string }> {
    await this.teams.get(input.teamId);
    return this.insert(this.apiKeys, input);
  }

  /**
   * Creates a key as a team member (the management API): within the plan's maxima, its defaults
   * for limits not asked for, and no more active keys than the plan allows (docs/security.md).
   */
  async createForMember(input: CreateApiKeyInput): Promise<{ apiKey: ApiKey; key: string }> {
    const plan = PLAN_KEY_LIMITS[(await this.teams.get(input.teamId)).plan];
    const bounded = withinPlan(input, plan);
    return this.apiKeys.manager.transaction(async (manager) => {
      // The team row's lock orders concurrent creations of one team, so two cannot both take the last place.
      await this.teams.lockForUpdate(input.teamId, manager);
      const active = await manager.countBy(ApiKey, { teamId: input.teamId, revokedAt: IsNull() });
      if (plan.maxActiveKeys !== null && active >= plan.maxActiveKeys) {
        throw new ValidationProblemException([
          { pointer: '', detail: `the team has ${active} active API keys, the most its plan allows; revoke one first` },
        ]);
      }
      return this.insert(manager.getRepository(ApiKey), bounded);
    });
  }

  private async insert(apiKeys: Repository<ApiKey>, input: CreateApiKeyInput): Promise<{ apiKey: ApiKey; key: string }> {
    const environment = input.environment ?? 'test';
    const generated = generateApiKey(environment);
    const apiKey = await apiKeys.save(
      apiKeys.create({
        id: randomUUID(),
        teamId: input.teamId,
        name: input.name ?? null,
        environment,
        keyHash: generated.hash,
        displayPrefix: generated.displayPrefix,
        lastFour: generated.lastFour,
        scopes: input.scopes ?? ['sessions:read', 'sessions:write'],
        perMinuteLimit: input.perMinuteLimit ?? null,
        monthlyLimit: input.monthlyLimit ?? null,
        ipLimit: input.ipLimit ?? null,
        maxRisk: input.maxRisk ?? null,
        validUntil: input.validUntil ?? null,
        blockedUntil: null,
        revokedAt: null,
        lastUsedAt: null,
      }),
    );
    return { apiKey: withoutHash(apiKey), key: generated.key };
  }

  /** The team's keys, newest first, revoked ones included (with revokedAt) for the audit trail. */
  listForTeam(teamId: string): Promise<ApiKey[]> {
    return this.apiKeys.find({ where: { teamId }, order: { createdAt: 'DESC', id: 'ASC' } });
  }

  /** Revokes a key of the team; revoking it again changes nothing. Another team's key is not found. */
  async revokeForTeam(teamId: string, id: string): Promise<ApiKey> {
    const apiKey = isUUID(id) ? await this.apiKeys.findOneBy({ id, teamId }) : null;
    if (!apiKey) throw new DomainException('not_found', `No API key ${id}.`);
    if (apiKey.revokedAt) return apiKey;
    return this.saveChanges(apiKey, { revokedAt: this.clock.now() });
  }

  async block(id: string, until: Date): Promise<ApiKey> {
    return this.update(id, { blockedUntil: until });
  }

  async revoke(id: string): Promise<ApiKey> {
    return this.update(id, { revokedAt: this.clock.now() });
  }

  /**
   * Resolves a presented key to its record and team, or throws the code docs/api.md gives for the first
   * check that fails: unknown/revoked → blocked → expired → subscription.
   */
  async authenticate(presented: string): Promise<AuthenticatedApiKey> {
    if (!parseApiKey(presented)) throw new DomainException('invalid_api_key', 'The API key is not valid.', { failedAttempt: true });
    const now = this.clock.now();
    const hash = hashApiKey(presented);
    const cacheKey = hash.toString('base64');
    this.changes.listen();
    let apiKey = this.cache.get(cacheKey, now.getTime());
    if (!apiKey) {
      const generation = this.changes.generation;
      apiKey = (await this.apiKeys.findOne({ where: { keyHash: hash }, relations: { team: true } })) ?? undefined;
      // Unknown keys are not cached: a key created on another replica must work at once. A change
      // heard while the read was under way may postdate what it read: such a read is not cached.
      if (apiKey && this.changes.live && this.changes.generation === generation) this.cache.set(cacheKey, apiKey, now.getTime());
    }
    if (!apiKey?.team || apiKey.revokedAt)
      throw new DomainException('invalid_api_key', 'The API key is not valid.', { failedAttempt: true });

    if (apiKey.blockedUntil && apiKey.blockedUntil > now) {
      throw new DomainException('api_key_blocked', `The API key is blocked until ${apiKey.blockedUntil.toISOString()}.`);
    }
    if (apiKey.validUntil && apiKey.validUntil <= now) {
      throw new DomainException('api_key_expired', `The API key expired at ${apiKey.validUntil.toISOString()}.`);
    }
    assertActiveSubscription(apiKey.team, now);
    return { apiKey, team: apiKey.team };
  }

  private async update(id: string, changes: Partial<ApiKey>): Promise<ApiKey> {
    const apiKey = await this.apiKeys.findOneBy({ id });
    if (!apiKey) throw new DomainException('not_found', `No API key ${id}.`);
    return this.saveChanges(apiKey, changes);
  }

  /** Saves, then tells every replica (this one too) to drop its cached copy. */
  private async saveChanges(apiKey: ApiKey, changes: Partial<ApiKey>): Promise<ApiKey> {
    const saved = await this.apiKeys.save(Object.assign(apiKey, changes));
    this.cache.deleteWhere((cached) => cached.id === apiKey.id);
    await this.changes.publish(apiKey.id);
    return saved;
  }
}

/** The input with the plan's defaults filled in; a limit above the plan's maximum is refused, naming the field. */
function withinPlan(input: CreateApiKeyInput, plan: PlanKeyLimits): CreateApiKeyInput {
  const bounded = { ...input };
  const errors = [];
  for (const field of ['perMinuteLimit', 'monthlyLimit'] as const) {
    const max = plan.maxima[field];
    if (bounded[field] === undefined) bounded[field] = plan.defaults[field] ?? undefined;
    else if (max !== null && bounded[field] > max)
      errors.push({ pointer: `/${field}`, detail: `${field} must not be greater than ${max} on the team's plan` });
  }
  if (errors.length > 0) throw new ValidationProblemException(errors);
  return bounded;
}

export const isApiKeyScope = (value: string): value is ApiKeyScope => (API_KEY_SCOPES as readonly string[]).includes(value);

function withoutHash(apiKey: ApiKey): ApiKey {
  const { keyHash: _hash, ...rest } = apiKey;
  return rest as ApiKey;
}
