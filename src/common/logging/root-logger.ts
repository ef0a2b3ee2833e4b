import { pino, type Logger } from 'pino';
import { errorForLog } from './error-for-log.js';

/**
 * The process's one pino logger: JSON lines on stdout. Credentials never reach a line (docs/operations.md):
 * request lines carry no headers, URLs are redacted (redactUrl), and these paths are censored
 * wherever a service logs an object holding them.
 *
 * Lines go out asynchronously: lines logged while a write is in flight leave in one syscall instead of one
 * each, and pino flushes what is left synchronously when the process exits, a crash included
 * (docs/operations.md, "Logs").
 */
export function createRootLogger(level: string): Logger {
  return pino(
    {
      level,
      // pino's own err serializer copies every property of an error, a driver error's SQL parameters too.
      serializers: { err: (value: unknown) => (value instanceof Error ? errorForLog(value) : value) },
      redact: {
        paths: ['*.qrStartSecret', '*.personalNumber', '*.secret', '*.password', '*.authorization', '*["x-api-key"]'],
        censor: '[redacted]',
      },
    },
    pino.destination({ dest: 1, sync: false }),
  );
}
