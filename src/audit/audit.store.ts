import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, EntityManager, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { statement } from '../database/statement.js';
import { AuditEvent } from './audit-event.entity.js';

// The table's DELETE trigger lets through only rows older than the cutoff its transaction names here
// (docs/audit.md, "Append-only, retention").
const namePurgeCutoffSql = statement<[cutoff: string]>(`SELECT set_config('eidgw.audit_purge_before', $1, true)`);
const purgeBeforeSql = statement<[cutoff: Date]>(`DELETE FROM audit_events WHERE occurred_at < $1`);

/** Every statement on audit_events: inserts and the retention purge, never an update. */
@Injectable()
export class AuditStore {
  constructor(
    @InjectRepository(AuditEvent) private readonly events: Repository<AuditEvent>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** `manager`: the transaction of the change the entry records, so both are kept or neither. */
  async insert(event: AuditEvent, manager: EntityManager = this.events.manager): Promise<void> {
    // details is free-form JSON, which TypeORM's deep-partial type cannot follow.
    await manager.insert(AuditEvent, event as QueryDeepPartialEntity<AuditEvent>);
  }

  async purgeBefore(cutoff: Date): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      await namePurgeCutoffSql.run(manager, cutoff.toISOString());
      return (await purgeBeforeSql.run(manager, cutoff)).rowCount;
    });
  }
}
