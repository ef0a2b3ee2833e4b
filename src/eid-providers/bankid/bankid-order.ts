import { ValidationProblemException, type FieldError } from '../../common/problem-details/validation-problem.exception.js';
import type { StartOrderRequest } from '../eid-provider.js';
import { deviceDataOf } from './bankid-device-data.js';
import type { AuthRequest, BankIdRequirement, PaymentRequest, PhoneAuthRequest, PhoneSignRequest, SignRequest } from './bankid-rp-api.js';

/** BankID: userVisibleData of an auth order is 1–1,500 characters after base64 encoding. */
export const AUTH_USER_VISIBLE_DATA_MAX = 1500;
/** BankID: userVisibleData of a sign order is 1–40,000 characters after base64 encoding. */
export const SIGN_USER_VISIBLE_DATA_MAX = 40_000;
/** BankID: userNonVisibleData is 1–200,000 characters of base64. */
export const USER_NON_VISIBLE_DATA_MAX = 200_000;

// The hint codes BankID documents for RP API v6.0. Others pass through as they are: BankID adds
// codes without notice, and an RP shows its generic message (RFA21 pending, RFA22 failed) for them.
export const PENDING_HINT_CODES = ['outstandingTransaction', 'noClient', 'started', 'userMrtd', 'userCallConfirm', 'userSign'] as const;
export const FAILED_HINT_CODES = [
  'expiredTransaction',
  'certificateErr',
  'userCancel',
  'cancelled',
  'startFailed',
  'userDeclinedCall',
  'notSupportedByUserApp',
  'transactionRiskBlocked',
] as const;

const OID = /^\d+(\.\d+)+$/;
const PERSONAL_NUMBER = /^\d{12}$/;

type RequirementRule = (value: unknown) => string | null;
const REQUIREMENT_RULES: Record<keyof BankIdRequirement, RequirementRule> = {
  pinCode: (v) => (typeof v === 'boolean' ? null : 'must be a boolean'),
  mrtd: (v) => (typeof v === 'boolean' ? null : 'must be a boolean'),
  cardReader: (v) => (v === 'class1' || v === 'class2' ? null : 'must be class1 or class2'),
  certificatePolicies: (v) =>
    Array.isArray(v) && v.length > 0 && v.every((p) => typeof p === 'string' && OID.test(p)) ? null : 'must be a non-empty list of OIDs',
  personalNumber: (v) => (typeof v === 'string' && PERSONAL_NUMBER.test(v) ? null : 'must be 12 digits (YYYYMMDDNNNN)'),
};

// The phone endpoints take a smaller requirement: the user is identified by the personal number already.
const PHONE_REQUIREMENTS = new Set<keyof BankIdRequirement>(['pinCode', 'certificatePolicies']);

export type BankIdStartPath = 'auth' | 'sign' | 'payment' | 'phone/auth' | 'phone/sign';
export type BankIdOrderRequest =
  | { path: 'auth'; body: AuthRequest }
  | { path: 'sign'; body: SignRequest }
  | { path: 'payment'; body: PaymentRequest }
  | { path: 'phone/auth'; body: PhoneAuthRequest }
  | { path: 'phone/sign'; body: PhoneSignRequest };

/**
 * The RP API call that starts a session's order (auth, sign, payment, phone/auth or phone/sign), checked
 * against the rules BankID enforces, so a mistake is a clear 400 here (docs/bankid.md).
 */
export function orderRequest(request: StartOrderRequest): BankIdOrderRequest {
  const phone = request.channel === 'phone';
  const sign = request.operation === 'sign';
  const payment = request.operation === 'payment';
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(request.requirement ?? {})) {
    // Own properties only: `hasOwnProperty` or `__proto__` as a name must be refused, not looked up on the prototype.
    const rule = Object.hasOwn(REQUIREMENT_RULES, name) ? REQUIREMENT_RULES[name as keyof BankIdRequirement] : undefined;
    const allowed = rule && (!phone || PHONE_REQUIREMENTS.has(name as keyof BankIdRequirement));
    const problem = allowed ? rule(value) : `is not a BankID RP API v6.0 requirement${phone ? ' of a phone order' : ''}`;
    if (problem) errors.push({ pointer: `/requirement/${name}`, detail: `requirement.${name} ${problem}` });
  }
  const userVisibleData =
    request.userVisibleData === undefined ? undefined : Buffer.from(request.userVisibleData, 'utf8').toString('base64');
  const visibleMax = sign ? SIGN_USER_VISIBLE_DATA_MAX : AUTH_USER_VISIBLE_DATA_MAX;
  if (sign && !userVisibleData) errors.push({ pointer: '/userVisibleData', detail: 'userVisibleData is required to sign' });
  if (userVisibleData && userVisibleData.length > visibleMax) {
    errors.push({
      pointer: '/userVisibleData',
      detail: `userVisibleData is too long for BankID: at most ${visibleMax} characters once base64-encoded`,
    });
  }
  if (request.userNonVisibleData !== undefined && (!(sign || payment) || request.userNonVisibleData.length > USER_NON_VISIBLE_DATA_MAX)) {
    errors.push({
      pointer: '/userNonVisibleData',
      detail: `userNonVisibleData is for sign and payment orders, at most ${USER_NON_VISIBLE_DATA_MAX} characters of base64`,
    });
  }
  errors.push(...paymentProblems(request, payment));
  if (phone && !(request.personalNumber && PERSONAL_NUMBER.test(request.personalNumber))) {
    errors.push({ pointer: '/personalNumber', detail: 'personalNumber must be 12 digits (YYYYMMDDNNNN)' });
  }
  if (phone && request.callInitiator !== 'user' && request.callInitiator !== 'RP') {
    errors.push({ pointer: '/callInitiator', detail: 'callInitiator must be user or RP' });
  }
  if (!phone && !request.endUserIp) errors.push({ pointer: '/endUserIp', detail: 'endUserIp is required' });
  if (errors.length) throw new ValidationProblemException(errors);

  const shown = userVisibleData ? { userVisibleData, userVisibleDataFormat: request.userVisibleDataFormat ?? 'plaintext' } : {};
  const hidden = request.userNonVisibleData ? { userNonVisibleData: request.userNonVisibleData } : {};
  const requirement = request.requirement ? { requirement: request.requirement } : {};
  if (phone) {
    const body = { personalNumber: request.personalNumber!, callInitiator: request.callInitiator!, ...requirement, ...shown, ...hidden };
    return sign ? { path: 'phone/sign', body: body as PhoneSignRequest } : { path: 'phone/auth', body };
  }
  const body = {
    endUserIp: request.endUserIp!,
    ...requirement,
    ...shown,
    ...hidden,
    ...(request.returnUrl ? { returnUrl: request.returnUrl } : {}),
    // The risk indication costs nothing, is kept with the evidence and is held against a key's maxRisk.
    returnRisk: true,
    ...deviceDataOf(request),
  };
  if (payment) {
    // Passed as given: the route validated it as BankID does (docs/bankid.md, "Payment").
    const transaction = { userVisibleTransaction: request.userVisibleTransaction! };
    const flags = request.riskFlags?.length ? { riskFlags: request.riskFlags } : {};
    return { path: 'payment', body: { ...body, ...transaction, ...flags } };
  }
  return sign ? { path: 'sign', body: body as SignRequest } : { path: 'auth', body };
}

/** payment orders need a transaction, and only they take one or risk flags. */
function paymentProblems(request: StartOrderRequest, payment: boolean): FieldError[] {
  if (payment && !request.userVisibleTransaction) {
    return [{ pointer: '/userVisibleTransaction', detail: 'userVisibleTransaction is required for a payment' }];
  }
  if (!payment && (request.userVisibleTransaction || request.riskFlags)) {
    return [{ pointer: '/userVisibleTransaction', detail: 'userVisibleTransaction and riskFlags are for payment orders' }];
  }
  return [];
}
