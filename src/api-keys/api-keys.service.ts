import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import type { Repository } from 'typeorm';
import { TtlCache } from '../common/cache/ttl-cache.js';
import { Clock } from '../common/clock/clock.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { assertActiveSubscription } from '../teams/subscription.js';
import { Team } from '../teams/team.entity.js';
import { TeamsService } from '../teams/teams.service.js';
import { generateApiKey, hashApiKey, parseApiKey, type ApiKeyEnvironment } from './api-key-format.js';
import { API_KEY_SCOPES, ApiKey, type ApiKeyScope } from './api-key.entity.js';

export interface CreateApiKeyInput {
  teamId: string;
  name?: string;
  environment?: ApiKeyEnvironment;
  scopes?: ApiKeyScope[];
  perMinuteLimit?: number;
  monthlyLimit?: number;
  ipLimit?: number;
  validUntil?: Date;
}

export interface AuthenticatedApiKey {
  apiKey: ApiKey;
  team: Team;
}

// Every API request authenticates; a few seconds of staleness saves a database round trip on each.
// Revoking or blocking on this replica takes effect at once; other replicas follow within the TTL.
const CACHE_TTL_MS = 5_000;
const CACHE_MAX_KEYS = 10_000;

@Injectable()
export class ApiKeysService {
  private readonly cache = new TtlCache<string, ApiKey>(CACHE_TTL_MS, CACHE_MAX_KEYS);

  constructor(
    @InjectRepository(ApiKey) private readonly apiKeys: Repository<ApiKey>,
    private readonly teams: TeamsService,
    private readonly clock: Clock,
  ) {}

  /** Creates a key; the returned `key` is the only time the secret exists outside the caller. */
  async create(input: CreateApiKeyInput): Promise<{ apiKey: ApiKey; key: string }> {
    await this.teams.get(input.teamId);
    const environment = input.environment ?? 'test';
    const generated = generateApiKey(environment);
    const apiKey = await this.apiKeys.save(
      this.apiKeys.create({
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
        validUntil: input.validUntil ?? null,
        blockedUntil: null,
        revokedAt: null,
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
    if (!parseApiKey(presented)) throw new DomainException('invalid_api_key', 'The API key is not valid.');
    const now = this.clock.now();
    const hash = hashApiKey(presented);
    const cacheKey = hash.toString('base64');
    let apiKey = this.cache.get(cacheKey, now.getTime());
    if (!apiKey) {
      apiKey = (await this.apiKeys.findOne({ where: { keyHash: hash }, relations: { team: true } })) ?? undefined;
      // Unknown keys are not cached: a key created on another replica must work at once.
      if (apiKey) this.cache.set(cacheKey, apiKey, now.getTime());
    }
    if (!apiKey?.team || apiKey.revokedAt) throw new DomainException('invalid_api_key', 'The API key is not valid.');

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

  private saveChanges(apiKey: ApiKey, changes: Partial<ApiKey>): Promise<ApiKey> {
    this.cache.deleteWhere((cached) => cached.id === apiKey.id);
    return this.apiKeys.save(Object.assign(apiKey, changes));
  }
}

export const isApiKeyScope = (value: string): value is ApiKeyScope => (API_KEY_SCOPES as readonly string[]).includes(value);

function withoutHash(apiKey: ApiKey): ApiKey {
  const { keyHash: _hash, ...rest } = apiKey;
  return rest as ApiKey;
}
