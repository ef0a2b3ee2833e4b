import { ValidationProblemException, type FieldError } from '../../common/problem-details/validation-problem.exception.js';
import type { CollectResult, StartOrderRequest } from '../eid-provider.js';
import type { AuthRequest, BankIdRequirement, CollectResponse } from './bankid-rp-api.js';

/** BankID: userVisibleData of an auth order is 1–1,500 characters after base64 encoding. */
export const AUTH_USER_VISIBLE_DATA_MAX = 1500;

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

/** The /auth body for a session, checked against the rules BankID enforces, so a mistake is a clear 400 here. */
export function authRequestBody(request: StartOrderRequest): AuthRequest {
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(request.requirement ?? {})) {
    // Own properties only: `hasOwnProperty` or `__proto__` as a name must be refused, not looked up on the prototype.
    const rule = Object.hasOwn(REQUIREMENT_RULES, name) ? REQUIREMENT_RULES[name as keyof BankIdRequirement] : undefined;
    const problem = rule ? rule(value) : 'is not a BankID RP API v6.0 requirement';
    if (problem) errors.push({ pointer: `/requirement/${name}`, detail: `requirement.${name} ${problem}` });
  }
  const userVisibleData = request.userVisibleData === undefined ? undefined : Buffer.from(request.userVisibleData, 'utf8').toString('base64');
  if (userVisibleData && userVisibleData.length > AUTH_USER_VISIBLE_DATA_MAX) {
    errors.push({
      pointer: '/userVisibleData',
      detail: `userVisibleData is too long for BankID: at most ${AUTH_USER_VISIBLE_DATA_MAX} characters once base64-encoded (about 1,100 plain ASCII characters)`,
    });
  }
  if (errors.length) throw new ValidationProblemException(errors);
  return {
    endUserIp: request.endUserIp,
    ...(request.requirement ? { requirement: request.requirement } : {}),
    ...(userVisibleData ? { userVisibleData, userVisibleDataFormat: request.userVisibleDataFormat ?? 'plaintext' } : {}),
    ...(request.returnUrl ? { returnUrl: request.returnUrl } : {}),
    // The risk indication costs nothing and is kept with the evidence of the order.
    returnRisk: true,
  };
}

/** A collect answer in the port's terms: status and hint code as they came, the identity and evidence on completion. */
export function collectResult(response: CollectResponse): CollectResult {
  if (response.status !== 'complete') return { status: response.status, ...(response.hintCode ? { hintCode: response.hintCode } : {}) };
  const { user, device, bankIdIssueDate, stepUp, signature, ocspResponse, risk } = response.completionData;
  const evidence = withoutUndefined({ bankIdIssueDate, stepUp, signature, ocspResponse, risk });
  return {
    status: 'complete',
    completion: {
      user: { personalNumber: user.personalNumber, name: user.name, givenName: user.givenName, surname: user.surname },
      ...(device ? { device: withoutUndefined({ ipAddress: device.ipAddress, uhi: device.uhi }) } : {}),
      ...(Object.keys(evidence).length ? { evidence } : {}),
    },
  };
}

const withoutUndefined = <T extends Record<string, unknown>>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
