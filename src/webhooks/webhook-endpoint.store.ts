import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import { statement } from '../database/statement.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';

/** An enabled endpoint as the outbox matches events against it. */
export interface EndpointSubscription {
  id: string;
  teamId: string;
  environment: ApiKeyEnvironment;
  eventTypes: string[];
}

const enabledOfTeamsSql = statement<
  [teamIds: string[]],
  { id: string; team_id: string; environment: ApiKeyEnvironment; event_types: string[] }
>(
  `SELECT e.id, e.team_id, e.environment, e.event_types
     FROM webhook_endpoints e
    WHERE e.team_id = ANY ($1::uuid[]) AND e.disabled_at IS NULL`,
);

/** Every statement on webhook_endpoints but the dispatcher's (WebhookDeliveryStore joins them to claims). */
@Injectable()
export class WebhookEndpointStore {
  constructor(@InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>) {}

  async insert(endpoint: WebhookEndpoint): Promise<void> {
    await this.endpoints.insert(this.endpoints.create(endpoint));
  }

  listForTeam(teamId: string): Promise<WebhookEndpoint[]> {
    return this.endpoints.find({ where: { teamId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findForTeam(id: string, teamId: string): Promise<WebhookEndpoint | null> {
    return this.endpoints.findOneBy({ id, teamId });
  }

  async teamOf(id: string): Promise<string | null> {
    const endpoint = await this.endpoints.findOne({ where: { id }, select: { id: true, teamId: true } });
    return endpoint?.teamId ?? null;
  }

  async update(id: string, teamId: string, changes: Partial<WebhookEndpoint>): Promise<void> {
    await this.endpoints.update({ id, teamId }, changes);
  }

  async delete(id: string, teamId: string): Promise<void> {
    await this.endpoints.delete({ id, teamId });
  }

  /**
   * Replaces the secret from the current one, with the row locked so that two rotations at once chain
   * (A's secret becomes B's previous) instead of losing one.
   */
  async rotateSecret(id: string, teamId: string, rotate: (currentSecretEnc: Buffer) => Partial<WebhookEndpoint>): Promise<void> {
    await this.endpoints.manager.transaction(async (manager) => {
      const { secretEnc } = await manager.findOneOrFail(WebhookEndpoint, {
        where: { id, teamId },
        select: { id: true, secretEnc: true },
        lock: { mode: 'pessimistic_write' },
      });
      await manager.update(WebhookEndpoint, { id, teamId }, rotate(secretEnc));
    });
  }

  /** Inside the caller's transaction: the enabled endpoints of these teams. */
  async enabledOfTeams(manager: EntityManager, teamIds: string[]): Promise<EndpointSubscription[]> {
    return (await enabledOfTeamsSql.run(manager, teamIds)).rows;
  }
}
