import { ValidationProblemException, type FieldError } from '../../common/problem-details/validation-problem.exception.js';
import type { CollectResult } from '../eid-provider.js';
import {
  REGISTRATION_LEVELS,
  USER_INFO_TYPES,
  type DetailsPayload,
  type InitAuthRequest,
  type InitSignRequest,
  type RegistrationLevel,
  type TransactionStatus,
  type UserInfoType,
} from './freja-rp-api.js';

/** What a start body may carry for Freja (docs/freja.md), beside the common fields. */
export interface FrejaStartOptions {
  userInfoType?: string;
  userInfo?: string;
  minRegistrationLevel?: string;
  userVisibleData?: string;
  userVisibleDataFormat?: string;
  /** Sign only: base64 given by the RP, signed with the text but not shown. */
  userNonVisibleData?: string;
}

// The service always asks for the name and the personal number, so the user has BankID's shape.
const ATTRIBUTES_TO_RETURN = [{ attribute: 'BASIC_USER_INFO' }, { attribute: 'SSN' }];
/** Freja: userInfo is at most 256 characters. */
const USER_INFO_MAX = 256;
const SWEDISH_SSN = /^\d{12}$/;
const PHONE = /^\+\d{7,15}$/;
// One @ with something on each side; no nested quantifiers, so no backtracking on client input.
const EMAIL = /^[^@\s]+@[^@\s]+$/;

type UserInfoRule = (value: string | undefined) => string | null;
const USER_INFO_RULES: Record<UserInfoType, UserInfoRule> = {
  INFERRED: (v) =>
    v === undefined ? null : 'must be left out when userInfoType is INFERRED (the user is known once they scan the QR code)',
  SSN: (v) =>
    v !== undefined && SWEDISH_SSN.test(v)
      ? null
      : 'must be a Swedish personal number of 12 digits (YYYYMMDDNNNN) when userInfoType is SSN',
  EMAIL: (v) =>
    v !== undefined && v.length <= USER_INFO_MAX && EMAIL.test(v) ? null : 'must be an email address when userInfoType is EMAIL',
  PHONE: (v) =>
    v !== undefined && PHONE.test(v) ? null : 'must be a phone number in international form (+46701234567) when userInfoType is PHONE',
};

function commonFields(options: FrejaStartOptions, errors: FieldError[]): InitAuthRequest {
  const userInfoType = (options.userInfoType ?? 'INFERRED') as UserInfoType;
  const minRegistrationLevel = (options.minRegistrationLevel ?? 'EXTENDED') as RegistrationLevel;
  if (!USER_INFO_TYPES.includes(userInfoType)) {
    errors.push({ pointer: '/userInfoType', detail: `userInfoType must be one of ${USER_INFO_TYPES.join(', ')}` });
  } else {
    const problem = USER_INFO_RULES[userInfoType](options.userInfo);
    if (problem) errors.push({ pointer: '/userInfo', detail: `userInfo ${problem}` });
  }
  if (!REGISTRATION_LEVELS.includes(minRegistrationLevel)) {
    errors.push({ pointer: '/minRegistrationLevel', detail: `minRegistrationLevel must be one of ${REGISTRATION_LEVELS.join(', ')}` });
  }
  return {
    userInfoType,
    userInfo: userInfoFor(userInfoType, options.userInfo),
    minRegistrationLevel,
    attributesToReturn: ATTRIBUTES_TO_RETURN,
  };
}

// Freja wants INFERRED's userInfo as N/A and an SSN as base64 of {country, ssn}.
function userInfoFor(type: UserInfoType, value: string | undefined): string {
  if (type === 'INFERRED' || value === undefined) return 'N/A';
  if (type === 'SSN') return base64(JSON.stringify({ country: 'SE', ssn: value }));
  return value;
}

function refuseMarkdown(options: FrejaStartOptions, errors: FieldError[]): void {
  if (options.userVisibleDataFormat !== undefined && options.userVisibleDataFormat !== 'plaintext') {
    errors.push({ pointer: '/userVisibleDataFormat', detail: 'Freja eID shows plain text only: userVisibleDataFormat must be plaintext' });
  }
}

/** The initAuthRequest for a session, checked so that a mistake is a clear 400 here. */
export function initAuthRequestBody(options: FrejaStartOptions): InitAuthRequest {
  const errors: FieldError[] = [];
  const body = commonFields(options, errors);
  refuseMarkdown(options, errors);
  if (errors.length) throw new ValidationProblemException(errors);
  return body;
}

/** The initSignRequest: the text as SIMPLE_UTF8_TEXT, or with userNonVisibleData as EXTENDED_UTF8_TEXT. */
export function initSignRequestBody(options: FrejaStartOptions): InitSignRequest {
  const errors: FieldError[] = [];
  const common = commonFields(options, errors);
  refuseMarkdown(options, errors);
  if (!options.userVisibleData)
    errors.push({ pointer: '/userVisibleData', detail: 'userVisibleData (the text the user signs) is required' });
  if (errors.length) throw new ValidationProblemException(errors);
  const text = base64(options.userVisibleData!);
  return options.userNonVisibleData === undefined
    ? { ...common, dataToSignType: 'SIMPLE_UTF8_TEXT', dataToSign: { text }, signatureType: 'SIMPLE' }
    : {
        ...common,
        dataToSignType: 'EXTENDED_UTF8_TEXT',
        dataToSign: { text, binaryData: options.userNonVisibleData },
        signatureType: 'EXTENDED',
      };
}

/** Freja's transaction statuses in the port's terms, with BankID's hint-code vocabulary where one fits. */
export const STATUS_MAPPING: Record<Exclude<TransactionStatus, 'APPROVED'>, CollectResult> = {
  STARTED: { status: 'pending', hintCode: 'outstandingTransaction' },
  DELIVERED_TO_MOBILE: { status: 'pending', hintCode: 'started' },
  CANCELED: { status: 'failed', hintCode: 'userCancel' },
  REJECTED: { status: 'failed', hintCode: 'providerRejected' },
  RP_CANCELED: { status: 'failed', hintCode: 'cancelled' },
  EXPIRED: { status: 'failed', hintCode: 'expiredTransaction' },
};

/** The result a verified `details` payload gives; a payload without name and personal number is no identity. */
export function completedResult(payload: DetailsPayload, details: string): CollectResult {
  const basic = payload.requestedAttributes?.basicUserInfo;
  const ssn = payload.requestedAttributes?.ssn;
  if (!basic || !ssn) return { status: 'failed', hintCode: 'providerError' };
  const evidence = {
    details,
    ...(payload.requestedAttributes?.registrationLevel ? { registrationLevel: payload.requestedAttributes.registrationLevel } : {}),
    ...(payload.signatureData?.userSignature ? { userSignature: payload.signatureData.userSignature } : {}),
  };
  return {
    status: 'complete',
    completion: {
      user: { personalNumber: ssn.ssn, name: `${basic.name} ${basic.surname}`, givenName: basic.name, surname: basic.surname },
      evidence,
    },
  };
}

const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
