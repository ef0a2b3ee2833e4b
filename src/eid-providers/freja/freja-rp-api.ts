import { z } from 'zod';

// The Freja eID Relying Party API wire format: authentication 1.0 and signature 1.0 (docs/freja.md
// names the source of every path, parameter name, field and code).

export type FrejaOperation = 'auth' | 'sign';
export type FrejaMethod = 'init' | 'getOneResult' | 'cancel';

/** Each method: its path and the one form parameter that carries base64 of the JSON request. */
export const FREJA_METHODS: Record<FrejaOperation, Record<FrejaMethod, { path: string; parameter: string }>> = {
  auth: {
    init: { path: '/authentication/1.0/initAuthentication', parameter: 'initAuthRequest' },
    getOneResult: { path: '/authentication/1.0/getOneResult', parameter: 'getOneAuthResultRequest' },
    cancel: { path: '/authentication/1.0/cancel', parameter: 'cancelAuthRequest' },
  },
  sign: {
    init: { path: '/sign/1.0/initSignature', parameter: 'initSignRequest' },
    getOneResult: { path: '/sign/1.0/getOneResult', parameter: 'getOneSignResultRequest' },
    cancel: { path: '/sign/1.0/cancel', parameter: 'cancelSignRequest' },
  },
};

/** The reference field of each operation: `authRef` for authentication, `signRef` for signature. */
export const REFERENCE_FIELD = { auth: 'authRef', sign: 'signRef' } as const satisfies Record<FrejaOperation, string>;

/**
 * `NAME=<base64 of the UTF-8 JSON>`, exactly as Freja's own client writes it: the standard base64
 * alphabet, not URL-encoded (Freja reads the value as it is).
 */
export function encodeFrejaRequest(parameter: string, request: object): string {
  return `${parameter}=${Buffer.from(JSON.stringify(request), 'utf8').toString('base64')}`;
}

export const USER_INFO_TYPES = ['INFERRED', 'SSN', 'EMAIL', 'PHONE'] as const;
export type UserInfoType = (typeof USER_INFO_TYPES)[number];
export const REGISTRATION_LEVELS = ['BASIC', 'EXTENDED', 'PLUS'] as const;
export type RegistrationLevel = (typeof REGISTRATION_LEVELS)[number];

interface CommonInitRequest {
  userInfoType: UserInfoType;
  /** `N/A` for INFERRED; for SSN base64 of `{"country":"SE","ssn":"…"}`. */
  userInfo: string;
  minRegistrationLevel: RegistrationLevel;
  attributesToReturn: { attribute: string }[];
}

export type InitAuthRequest = CommonInitRequest;

export interface InitSignRequest extends CommonInitRequest {
  title?: string;
  dataToSignType: 'SIMPLE_UTF8_TEXT' | 'EXTENDED_UTF8_TEXT';
  /** `text` and `binaryData` are base64. */
  dataToSign: { text: string; binaryData?: string };
  signatureType: 'SIMPLE' | 'EXTENDED';
}

export const initAuthResponseSchema = z.object({ authRef: z.string().min(1) });
export const initSignResponseSchema = z.object({ signRef: z.string().min(1) });

export const TRANSACTION_STATUSES = [
  'STARTED',
  'DELIVERED_TO_MOBILE',
  'APPROVED',
  'CANCELED',
  'REJECTED',
  'RP_CANCELED',
  'EXPIRED',
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** A getOneResult answer, with the reference under one name whichever the operation. */
export interface FrejaResult {
  reference: string;
  status: TransactionStatus;
  /** A compact JWS signed by Freja; present once the transaction is APPROVED. */
  details?: string;
}

export const resultResponseSchema = (operation: FrejaOperation) =>
  z
    .object({
      [REFERENCE_FIELD[operation]]: z.string().min(1),
      status: z.enum(TRANSACTION_STATUSES),
      details: z.string().min(1).optional(),
    })
    .transform((body): FrejaResult => ({
      reference: body[REFERENCE_FIELD[operation]] as string,
      status: body.status as TransactionStatus,
      ...(body.details ? { details: body.details } : {}),
    }));

/** The payload of the `details` JWS: the attributes the service asked for, signed by Freja. */
export const detailsPayloadSchema = z.object({
  authRef: z.string().optional(),
  signRef: z.string().optional(),
  status: z.enum(TRANSACTION_STATUSES),
  userInfoType: z.string().optional(),
  timestamp: z.number().optional(),
  minRegistrationLevel: z.string().optional(),
  requestedAttributes: z
    .object({
      basicUserInfo: z.object({ name: z.string(), surname: z.string() }).optional(),
      ssn: z.object({ ssn: z.string(), country: z.string() }).optional(),
      registrationLevel: z.string().optional(),
    })
    .optional(),
  signatureType: z.string().optional(),
  signatureData: z.object({ userSignature: z.string().optional(), certificateStatus: z.string().optional() }).optional(),
});
export type DetailsPayload = z.infer<typeof detailsPayloadSchema>;

/** `{code, message}`: the body of an HTTP 400 or 422 answer. */
export const errorResponseSchema = z.object({ code: z.number().int(), message: z.string().optional() });

/**
 * The error codes Freja documents for these methods. Where the fault is Freja's or the RP's set-up
 * (0, 1004, 1005, 1008) the session cannot start: 502. Where the request carried something
 * Freja refuses (a user, a level, data to sign) the caller can fix it: 400.
 */
export const FREJA_ERROR_CODES = {
  internalError: 0,
  invalidParameters: 1000,
  invalidUserInfoType: 1001,
  invalidUserInfo: 1002,
  methodNotAllowed: 1004,
  serviceNotEnabled: 1005,
  invalidMinRegistrationLevel: 1007,
  unknownRelyingParty: 1008,
  invalidJsonRequest: 1010,
  nonExistingUser: 1012,
  invalidReference: 1100,
  authInitFailed: 2000,
  invalidAttributesToReturn: 2002,
  invalidDataToSignType: 3000,
  invalidDataToSign: 3001,
  invalidSignatureType: 3002,
  invalidExpiry: 3003,
  invalidSignAttributesToReturn: 3005,
  invalidTitle: 3007,
} as const;
