import type { AuditEntry } from '../audit/audit-log.service.js';
import type { CliRuntime } from './cli-runtime.js';

const auditLog = () => import('../audit/audit-log.service.js').then((module) => module.AuditLog);

/** The audit entry of a command line change: the operator did it (docs/audit.md). */
export async function recordAsOperator(cli: CliRuntime, entry: Omit<AuditEntry, 'actor'>): Promise<void> {
  await (await cli.service(auditLog)).record({ ...entry, actor: { kind: 'operator' } });
}
