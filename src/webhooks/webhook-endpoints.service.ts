import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import { Clock } from '../common/clock/clock.js';
import { DataCipher } from '../common/crypto/data-cipher.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { isUuid } from '../common/validation/is-uuid.js';
import { webhooksConfig, type WebhooksConfig } from '../config/webhooks.config.js';
import { featuresOf } from '../teams/plans.js';
import { TeamsService } from '../teams/teams.service.js';
import { DEFAULT_WEBHOOK_EVENT_TYPES, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook-event-types.js';
import { previousSecretAad, secretAad } from './webhook-encryption.js';
import type { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { WebhookEndpointStore } from './webhook-endpoint.store.js';
import { generateWebhookSecret } from './webhook-signer.js';
import { assertPublicTarget, ForbiddenTargetError } from './webhook-target-policy.js';

/** Svix's and the Standard Webhooks' rotation window: the old secret keeps signing this long. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
export const WEBHOOK_URL_MAX_LENGTH = 2048;
export interface CreateEndpointInput {
  url: string;
  eventTypes?: WebhookEventType[];
  environment?: ApiKeyEnvironment;
  description?: string;
}

export interface UpdateEndpointInput {
  url?: string;
  eventTypes?: WebhookEventType[];
  description?: string | null;
  enabled?: boolean;
}

/** Endpoints of a team: the management API and the CLI both come through here. */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly endpoints: WebhookEndpointStore,
    private readonly teams: TeamsService,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
  ) {}

  /** Creates an endpoint; the returned secret is the only time it leaves the service. */
  async create(teamId: string, input: CreateEndpointInput): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
    const team = await this.teams.get(teamId);
    // The CLI comes here without the guard, so the plan rule is the service's (docs/webhooks.md).
    if (!featuresOf(team).has('pro')) {
      throw new DomainException('feature_required', "The team's plan lacks pro.", { extensions: { features: ['pro'] } });
    }
    const url = await this.checkedUrl(input.url);
    const id = randomUUID();
    const secret = generateWebhookSecret();
    const now = this.clock.now();
    const endpoint: WebhookEndpoint = {
      id,
      teamId,
      environment: input.environment ?? 'test',
      url,
      description: input.description ?? null,
      eventTypes: uniqueEventTypes(input.eventTypes),
      secretEnc: this.cipher.encrypt(secret, secretAad(id)),
      previousSecretEnc: null,
      previousSecretExpiresAt: null,
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.endpoints.insert(endpoint);
    return { endpoint: endpointView(endpoint), secret };
  }

  async list(teamId: string): Promise<WebhookEndpointView[]> {
    const rows = await this.endpoints.listForTeam(teamId);
    return rows.map(endpointView);
  }

  async get(teamId: string, id: string): Promise<WebhookEndpointView> {
    return endpointView(await this.find(teamId, id));
  }

  /** The team of an endpoint, for the operator's command line, which names endpoints by id alone. */
  async teamOf(id: string): Promise<string> {
    const teamId = isUuid(id) ? await this.endpoints.teamOf(id) : null;
    if (!teamId) throw new DomainException('not_found', `No webhook endpoint ${id}.`);
    return teamId;
  }

  async update(teamId: string, id: string, input: UpdateEndpointInput): Promise<WebhookEndpointView> {
    const endpoint = await this.find(teamId, id);
    const changes: Partial<WebhookEndpoint> = { updatedAt: this.clock.now() };
    if (input.url !== undefined) changes.url = await this.checkedUrl(input.url);
    if (input.eventTypes !== undefined) changes.eventTypes = uniqueEventTypes(input.eventTypes);
    if (input.description !== undefined) changes.description = input.description;
    if (input.enabled === true && endpoint.disabledAt) {
      // A fresh start: the failure streak that may have disabled it is forgiven.
      Object.assign(changes, { disabledAt: null, disabledReason: null, failingSince: null });
    }
    if (input.enabled === false && !endpoint.disabledAt) Object.assign(changes, { disabledAt: this.clock.now(), disabledReason: 'manual' });
    await this.endpoints.update(id, teamId, changes);
    return endpointView(Object.assign(endpoint, changes));
  }

  async remove(teamId: string, id: string): Promise<WebhookEndpointView> {
    const endpoint = await this.find(teamId, id);
    // Its deliveries and their attempts go with it (foreign keys cascade): nothing is sent to it any more.
    await this.endpoints.delete(id, teamId);
    return endpointView(endpoint);
  }

  /** A new secret; the previous one keeps signing for ROTATION_OVERLAP_MS so receivers can switch. */
  async rotateSecret(teamId: string, id: string): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
    await this.find(teamId, id);
    const secret = generateWebhookSecret();
    await this.endpoints.rotateSecret(id, teamId, (secretEnc) => {
      const now = this.clock.now();
      return {
        secretEnc: this.cipher.encrypt(secret, secretAad(id)),
        previousSecretEnc: this.cipher.encrypt(this.cipher.decrypt(secretEnc, secretAad(id)), previousSecretAad(id)),
        previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
        updatedAt: now,
      };
    });
    return { endpoint: await this.get(teamId, id), secret };
  }

  private async find(teamId: string, id: string): Promise<WebhookEndpoint> {
    // Another team's endpoint answers like a missing one.
    const endpoint = isUuid(id) ? await this.endpoints.findForTeam(id, teamId) : null;
    if (!endpoint) throw new DomainException('not_found', `No webhook endpoint ${id}.`);
    return endpoint;
  }

  /** A URL we may call: absolute http(s), no credentials, and (unless allowed) public addresses only. */
  private async checkedUrl(text: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new DomainException('invalid_webhook_url', 'url must be an absolute http or https URL.');
    }
    const allowed = this.config.requireHttps ? ['https:'] : ['http:', 'https:'];
    if (!allowed.includes(url.protocol)) throw new DomainException('invalid_webhook_url', `url must use ${allowed.join(' or ')}.`);
    if (url.username || url.password) throw new DomainException('invalid_webhook_url', 'url must not carry a user name or password.');
    if (url.href.length > WEBHOOK_URL_MAX_LENGTH)
      throw new DomainException('invalid_webhook_url', `url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters.`);
    if (!this.config.allowPrivateTargets) {
      try {
        await assertPublicTarget(url);
      } catch (error) {
        if (error instanceof ForbiddenTargetError) throw new DomainException('invalid_webhook_url', `${error.message}.`);
        throw new DomainException('invalid_webhook_url', `The host ${url.hostname} does not resolve.`);
      }
    }
    return url.href;
  }
}

function uniqueEventTypes(requested: WebhookEventType[] | undefined): WebhookEventType[] {
  // Progress events only by request (docs/webhooks.md, "Progress events").
  const wanted = new Set<WebhookEventType>(requested?.length ? requested : DEFAULT_WEBHOOK_EVENT_TYPES);
  return WEBHOOK_EVENT_TYPES.filter((type) => wanted.has(type));
}

/** What an endpoint looks like to its team: never its secrets. */
export function endpointView(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    environment: endpoint.environment,
    eventTypes: endpoint.eventTypes,
    enabled: endpoint.disabledAt === null,
    disabledAt: endpoint.disabledAt,
    disabledReason: endpoint.disabledReason,
    failingSince: endpoint.failingSince,
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt,
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
  };
}
export type WebhookEndpointView = ReturnType<typeof endpointView>;
