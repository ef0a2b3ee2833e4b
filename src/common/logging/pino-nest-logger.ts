import { errorForLog } from './error-for-log.js';
import type { LoggerService } from '@nestjs/common';
import type { Level, Logger } from 'pino';

/**
 * Nest's Logger calls, written through pino. Services log `this.logger.warn({ sessionId }, 'text')`:
 * Nest passes the object, the text, then the logger's context (the class name) as the last parameter.
 */
export class PinoNestLogger implements LoggerService {
  constructor(readonly pino: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const last = params.at(-1);
    const context = params.length > 0 && typeof last === 'string' ? last : undefined;
    const rest = context === undefined ? params : params.slice(0, -1);
    // Nest's own error(message, stack, context): the stack comes second.
    const text = rest.find((param): param is string => typeof param === 'string');
    if (message instanceof Error) this.pino[level]({ context, err: errorForLog(message) }, text ?? message.message);
    else if (typeof message === 'object' && message !== null) this.pino[level]({ context, ...withSafeErrors(message) }, text);
    else this.pino[level]({ context, ...(text ? { stack: text } : {}) }, String(message));
  }
}

/**
 * A service's `{ err }` may be a driver error whose own properties hold the SQL and its parameters
 * (client addresses, key ids, e-mail addresses): only its class, message and stack are written (docs/security.md).
 */
function withSafeErrors(fields: object): object {
  const { err, error } = fields as { err?: unknown; error?: unknown };
  if (!(err instanceof Error) && !(error instanceof Error)) return fields;
  return {
    ...fields,
    ...(err instanceof Error ? { err: errorForLog(err) } : {}),
    ...(error instanceof Error ? { error: errorForLog(error) } : {}),
  };
}
