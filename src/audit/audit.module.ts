import { Global, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { auditConfig } from '../config/audit.config.js';
import { ListingsModule } from '../listings/listings.module.js';
import { AuditEvent } from './audit-event.entity.js';
import { AuditEventsController } from './audit-events.controller.js';
import { AuditLog } from './audit-log.service.js';
import { AuditPurgeJob } from './audit-purge.job.js';
import { AuditStore } from './audit.store.js';

/**
 * The audit log (docs/audit.md). Global, so any module (OIDC clients, members, the console login)
 * can inject AuditLog without importing this one.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AuditEvent]), ConfigModule.forFeature(auditConfig), ListingsModule],
  controllers: [AuditEventsController],
  providers: [AuditStore, AuditLog, AuditPurgeJob],
  exports: [AuditLog],
})
export class AuditModule {}
