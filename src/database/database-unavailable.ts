// What "the database is unreachable" looks like from node-postgres and TypeORM (docs/reliability.md):
// a refused or dropped socket, a connect or query deadline, or the server saying it is shutting down
// or starting. Such an error is the dependency's, not a bug: the API answers 503 service_unavailable.

/** Socket errors of the connection to the server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLSTATEs of a server that is going away or not accepting work (PostgreSQL appendix A). */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

// node-postgres's own texts for a connection that ended or a deadline that passed.
const CLIENT_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout|Client was closed)/;

/** Whether `error` (or what it wraps: TypeORM's driverError, a cause) says the database cannot be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && CLIENT_MESSAGES.test(message)) return true;
    const { driverError, cause } = current as { driverError?: unknown; cause?: unknown };
    current = driverError ?? cause;
  }
  return false;
}
