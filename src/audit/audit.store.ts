import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, type Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { AuditEvent } from './audit-event.entity.js';

/** Every statement on audit_events: inserts and the retention purge, never an update. */
@Injectable()
export class AuditStore {
  constructor(@InjectRepository(AuditEvent) private readonly events: Repository<AuditEvent>) {}

  async insert(event: AuditEvent): Promise<void> {
    // details is free-form JSON, which TypeORM's deep-partial type cannot follow.
    await this.events.insert(event as QueryDeepPartialEntity<AuditEvent>);
  }

  async purgeBefore(cutoff: Date): Promise<number> {
    const result = await this.events.delete({ occurredAt: LessThan(cutoff) });
    return result.affected ?? 0;
  }
}
