/**
 * What a log line may say about an error: its class, message and stack, nothing else. A driver error
 * (TypeORM's QueryFailedError) also carries the SQL and its parameters (e-mail addresses, phone
 * numbers, addresses), which pino would copy into the line (docs/security.md).
 */
export function errorForLog(error: unknown): { type: string; message: string; stack?: string } {
  if (!(error instanceof Error)) return { type: typeof error, message: 'a non-Error value was thrown' };
  return { type: error.constructor.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
}
