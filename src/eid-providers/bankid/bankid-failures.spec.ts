import { ERROR_CODES } from '../../common/problem-details/error-codes.js';
import { BankIdError, type BankIdFailureKind } from './bankid-client.js';
import { decideFailure, loggableDetails, type BankIdOperation } from './bankid-failures.js';

const api = (errorCode: string, httpStatus = 400, retryAfterSeconds?: number) =>
  new BankIdError('api', errorCode, { errorCode, httpStatus, retryAfterSeconds });
const transport = (kind: BankIdFailureKind) => new BankIdError(kind, kind);

describe(decideFailure.name, () => {
  it.each<[BankIdOperation, Error, number, string, string]>([
    ['auth', api('alreadyInProgress'), 409, 'order_in_progress', 'info'],
    ['auth', api('invalidParameters'), 400, 'provider_rejected_request', 'warn'],
    ['phone/sign', api('alreadyInProgress'), 409, 'order_in_progress', 'info'],
    ['sign', api('invalidParameters'), 400, 'provider_rejected_request', 'warn'],
    ['collect', api('invalidParameters'), 502, 'provider_unavailable', 'warn'],
    ['auth', api('unauthorized', 401), 502, 'provider_unavailable', 'error'],
    ['auth', api('notFound', 404), 502, 'provider_unavailable', 'error'],
    ['auth', api('methodNotAllowed', 405), 502, 'provider_unavailable', 'error'],
    ['auth', api('unsupportedMediaType', 415), 502, 'provider_unavailable', 'error'],
    ['auth', api('requestTimeout', 408), 502, 'provider_unavailable', 'warn'],
    ['auth', api('maintenance', 503), 502, 'provider_unavailable', 'warn'],
    ['collect', api('internalError', 500), 502, 'provider_unavailable', 'warn'],
    ['auth', api('somethingNew'), 502, 'provider_unavailable', 'warn'],
    ['auth', transport('timeout'), 502, 'provider_unavailable', 'warn'],
    ['cancel', transport('network'), 502, 'provider_unavailable', 'warn'],
    ['auth', transport('tls'), 502, 'provider_unavailable', 'error'],
    ['auth', transport('protocol'), 502, 'provider_unavailable', 'error'],
    ['auth', new TypeError('bug'), 502, 'provider_unavailable', 'error'],
  ])('should answer a failed %s with %s by %i %s (log %s)', (operation, error, status, code, level) => {
    const decision = decideFailure(operation, error);
    expect(decision.level).toBe(level);
    expect(decision.exception.code).toBe(code);
    expect(ERROR_CODES[decision.exception.code].status).toBe(status);
  });

  it('should pass the rate-limit reset on as Retry-After', () => {
    expect(decideFailure('auth', api('tooManyRequests', 429, 9)).exception.options.headers).toEqual({ 'retry-after': '9' });
    expect(decideFailure('auth', api('tooManyRequests', 429)).exception.options.headers).toEqual({ 'retry-after': '1' });
  });
});

describe(loggableDetails.name, () => {
  it('should cut the text short and hide anything shaped like a personal number', () => {
    expect(loggableDetails('Incorrect personalNumber 199001012393')).toBe('Incorrect personalNumber [digits]');
    expect(loggableDetails('x'.repeat(500))).toHaveLength(200);
    expect(loggableDetails(undefined)).toBeUndefined();
  });
});
