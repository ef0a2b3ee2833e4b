import type { ErrorCode } from './error-codes.js';

export interface DomainExceptionOptions {
  /** Extension members of the problem document, e.g. `features` on feature_required. */
  extensions?: Record<string, unknown>;
  /** Response headers such as Retry-After or WWW-Authenticate. */
  headers?: Record<string, string>;
  /** The credential counts towards the caller's IP block (docs/protection.md lists which do). */
  failedAttempt?: boolean;
  /**
   * Where one code answers with another status on one route than in the code table: an ID card's
   * expired or used code is 409 qr_expired, a stale QR frame at the simulator 400 (docs/idcard.md).
   */
  status?: number;
}

/** Thrown by services; the problem-details filter turns it into an HTTP answer. */
export class DomainException extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    readonly options: DomainExceptionOptions = {},
  ) {
    super(detail ?? code);
    this.name = 'DomainException';
  }
}
