import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import { Clock } from '../common/clock/clock.js';
import type { User } from '../users/user.entity.js';
import { targetTypeOf, type AuditAction } from './audit-actions.js';
import { AuditStore } from './audit.store.js';

/** Who did it: a member (from the management API or the console) or the operator (the command line). */
export type AuditActor =
  { kind: 'member'; user: Pick<User, 'id' | 'email' | 'phone'>; clientAddress: string | null } | { kind: 'operator' };

export interface AuditEntry {
  teamId: string;
  action: AuditAction;
  actor: AuditActor;
  targetId?: string | null;
  environment?: ApiKeyEnvironment | null;
  /** A few non-secret facts; never a secret, token or personal number (docs/audit.md). */
  details?: Record<string, unknown>;
}

/**
 * The audit log's one way in (docs/audit.md). Management routes record through @Audited(); other
 * modules (the command line, OIDC clients, the console login) call record() themselves.
 */
@Injectable()
export class AuditLog {
  constructor(
    private readonly store: AuditStore,
    private readonly clock: Clock,
  ) {}

  /** `manager`: the transaction of the change, so that the change and its entry commit together or not at all. */
  async record(entry: AuditEntry, manager?: EntityManager): Promise<void> {
    const { actor } = entry;
    await this.store.insert(
      {
        id: randomUUID(),
        teamId: entry.teamId,
        environment: entry.environment ?? null,
        occurredAt: this.clock.now(),
        actorType: actor.kind,
        actorId: actor.kind === 'member' ? actor.user.id : null,
        actorLabel: actor.kind === 'member' ? (actor.user.email ?? actor.user.phone) : 'operator',
        action: entry.action,
        targetType: targetTypeOf(entry.action),
        targetId: entry.targetId ?? null,
        details: entry.details && Object.keys(entry.details).length > 0 ? entry.details : null,
        clientAddress: actor.kind === 'member' ? actor.clientAddress : null,
      },
      manager,
    );
  }
}
