import { Injectable } from '@nestjs/common';
import { UsersService } from '../users/users.service.js';
import { AuditLog } from './audit-log.service.js';

/** The audit entry of a console login (docs/audit.md): the member, in the member's own team. */
@Injectable()
export class ConsoleLoginAudit {
  constructor(
    private readonly users: UsersService,
    private readonly audit: AuditLog,
  ) {}

  async loggedIn(userId: string, clientAddress: string | null): Promise<void> {
    const user = await this.users.findWithTeam(userId);
    if (!user) return;
    await this.audit.record({
      teamId: user.teamId,
      action: 'console.login',
      actor: { kind: 'member', user, clientAddress },
      targetId: user.id,
    });
  }
}
