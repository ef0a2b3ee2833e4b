import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { assertConsoleHeader } from './console-cookie.js';
import { ConsoleLoginLimit } from './console-login-limit.service.js';

/** Before the body is read: the console's CSRF header, then the per-address limit (docs/console.md). */
@Injectable()
export class ConsoleLoginGuard implements CanActivate {
  constructor(private readonly limit: ConsoleLoginLimit) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    assertConsoleHeader(request);
    await this.limit.consume(request.ip);
    return true;
  }
}
