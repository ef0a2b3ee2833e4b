import { DomainException } from '../../common/problem-details/domain.exception.js';
import { BankIdError } from './bankid-client.js';

export type BankIdOperation = 'auth' | 'sign' | 'payment' | 'phone/auth' | 'phone/sign' | 'collect' | 'cancel' | 'idcard/verify';

const STARTS = new Set<BankIdOperation>(['auth', 'sign', 'payment', 'phone/auth', 'phone/sign']);

export interface FailureDecision {
  exception: DomainException;
  /** error: the operator must act (certificate, CA, URL); warn: an outage or a refused order; info: the user's doing. */
  level: 'error' | 'warn' | 'info';
}

// Answers that mean this deployment is misconfigured: no retry helps, someone must fix it.
const OPERATOR_CODES = new Set(['unauthorized', 'notFound', 'methodNotAllowed', 'unsupportedMediaType']);

const unavailable = (headers?: Record<string, string>) =>
  new DomainException('provider_unavailable', 'BankID did not answer; try again shortly.', headers ? { headers } : {});

/**
 * What the RP sees when a BankID call fails, once retries are spent (docs/bankid.md has the table).
 * An outage is 502 provider_unavailable (docs/api.md); a refusal caused by the order itself is not.
 */
export function decideFailure(operation: BankIdOperation, error: unknown): FailureDecision {
  if (!(error instanceof BankIdError)) return { exception: unavailable(), level: 'error' };
  if (error.kind === 'tls' || error.kind === 'protocol') return { exception: unavailable(), level: 'error' };
  if (error.kind !== 'api') return { exception: unavailable(), level: 'warn' };
  const code = error.errorCode ?? '';
  if (STARTS.has(operation) && code === 'alreadyInProgress') {
    // BankID cancels both orders: the user's other order and this one (RFA4).
    return {
      exception: new DomainException(
        'order_in_progress',
        'BankID already had an order in progress for this person; both were cancelled. Ask the user to try again.',
        { extensions: { providerErrorCode: code } },
      ),
      level: 'info',
    };
  }
  if (STARTS.has(operation) && code === 'invalidParameters') {
    return {
      exception: new DomainException(
        'provider_rejected_request',
        'BankID refused the parameters of this order; check requirement and returnUrl.',
        {
          extensions: { providerErrorCode: code },
        },
      ),
      level: 'warn',
    };
  }
  if (code === 'tooManyRequests') {
    return { exception: unavailable({ 'retry-after': String(error.detail.retryAfterSeconds ?? 1) }), level: 'warn' };
  }
  return { exception: unavailable(), level: OPERATOR_CODES.has(code) ? 'error' : 'warn' };
}

/** BankID's free-text details, for the operator's log: short, and without anything shaped like a personal number. */
export const loggableDetails = (details: string | undefined): string | undefined => details?.slice(0, 200).replace(/\d{6,}/g, '[digits]');
