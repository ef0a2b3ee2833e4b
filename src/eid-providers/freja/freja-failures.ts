import { DomainException } from '../../common/problem-details/domain.exception.js';
import { FrejaError } from './freja-client.js';
import { FREJA_ERROR_CODES as C } from './freja-rp-api.js';

export interface FrejaFailureDecision {
  exception: DomainException;
  /** error: the operator must act (certificate, CA, URL, agreement); warn: an outage or a refused request. */
  level: 'error' | 'warn';
}

// The request carried something Freja refuses and the caller can change (a user, a level, data to sign): 400.
const CALLER_CODES = new Set<number>([
  C.invalidParameters,
  C.invalidUserInfoType,
  C.invalidUserInfo,
  C.invalidMinRegistrationLevel,
  C.nonExistingUser,
  C.invalidAttributesToReturn,
  C.invalidDataToSignType,
  C.invalidDataToSign,
  C.invalidSignatureType,
  C.invalidExpiry,
  C.invalidSignAttributesToReturn,
  C.invalidTitle,
]);
// This deployment is not set up at Freja (or sent what Freja cannot read): someone must fix it.
const OPERATOR_CODES = new Set<number>([C.methodNotAllowed, C.serviceNotEnabled, C.unknownRelyingParty, C.invalidJsonRequest]);

const unavailable = () => new DomainException('provider_unavailable', 'Freja eID did not answer; try again shortly.');

/** What the RP sees when a Freja call fails (docs/freja.md has the table): Freja's fault 502, the request's 400. */
export function decideFrejaFailure(error: unknown): FrejaFailureDecision {
  if (!(error instanceof FrejaError)) return { exception: unavailable(), level: 'error' };
  if (error.kind === 'tls' || error.kind === 'protocol') return { exception: unavailable(), level: 'error' };
  if (error.kind !== 'api' || error.code === undefined) return { exception: unavailable(), level: error.kind === 'api' ? 'error' : 'warn' };
  const extensions = { providerErrorCode: error.code };
  if (error.code === C.authInitFailed) {
    // Freja refused to start because the user's previous transaction was refused for security reasons.
    return {
      exception: new DomainException(
        'order_in_progress',
        'Freja eID refused a new transaction for this user for now; ask the user to try again later.',
        { extensions },
      ),
      level: 'warn',
    };
  }
  if (CALLER_CODES.has(error.code)) {
    return {
      exception: new DomainException(
        'provider_rejected_request',
        'Freja eID refused the parameters of this request; check userInfoType, userInfo and minRegistrationLevel.',
        {
          extensions,
        },
      ),
      level: 'warn',
    };
  }
  return { exception: unavailable(), level: OPERATOR_CODES.has(error.code) ? 'error' : 'warn' };
}

/** Freja's message, for the operator's log: short, and without anything shaped like a personal number. */
export const loggableMessage = (message: string | undefined): string | undefined => message?.slice(0, 200).replace(/\d{6,}/g, '[digits]');
