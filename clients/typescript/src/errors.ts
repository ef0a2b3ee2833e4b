import type { components } from './generated/openapi.js';

export type Problem = components['schemas']['ProblemDto'];

/** What went wrong when the service gave no problem details: the request never got an answer, or was refused here. */
export type ClientErrorCode =
  | 'environment_mismatch'
  | 'invalid_api_key_format'
  | 'access_token_required'
  | 'timeout'
  | 'network_error'
  | 'invalid_webhook_signature'
  | 'invalid_result_token';

/**
 * Every failure of the client: a problem-details answer of the service (RFC 9457, docs/api.md), with its
 * `status`, `code` and fields, or a refusal before any answer (`status` undefined, a client `code`).
 * The message never carries a key, token or secret: only the service's title, detail and code.
 */
export class EidGatewayError extends Error {
  override readonly name = 'EidGatewayError';
  /** The HTTP status; undefined when no answer came (timeout, network) or the client refused first. */
  readonly status: number | undefined;
  /** The problem's machine-readable code (`session_not_found`, `rate_limit_exceeded`, …) or a ClientErrorCode. */
  readonly code: string | undefined;
  readonly type: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  /** `validation_failed`: one entry per refused field. */
  readonly errors: Problem['errors'];
  /** The whole problem document as the service sent it (`features`, `scopes`, …). */
  readonly problem: Problem | undefined;
  /** Seconds the service asked to wait (429, 503, `ip_blocked`). */
  readonly retryAfter: number | undefined;

  constructor(message: string, fields: { status?: number; code?: string; problem?: Problem; retryAfter?: number; cause?: unknown } = {}) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    const { problem } = fields;
    this.status = fields.status ?? problem?.status;
    this.code = fields.code ?? problem?.code;
    this.type = problem?.type;
    this.title = problem?.title;
    this.detail = problem?.detail;
    this.errors = problem?.errors;
    this.problem = problem;
    this.retryAfter = fields.retryAfter;
  }

  /** From an answer that is not 2xx: problem details when the body is one, else the status alone. */
  static fromAnswer(status: number, body: unknown, retryAfter: number | undefined): EidGatewayError {
    const problem = isProblem(body) ? body : undefined;
    const what = problem ? [problem.code, problem.detail ?? problem.title].filter(Boolean).join(': ') : `HTTP ${status}`;
    return new EidGatewayError(`${status} ${what}`, { status, problem, retryAfter });
  }
}

const isProblem = (body: unknown): body is Problem =>
  typeof body === 'object' && body !== null && ('title' in body || 'code' in body || 'status' in body);
