import { z } from 'zod';

// The BankID Relying Party API v6.0 wire format (auth, sign, payment, phone/auth, phone/sign, collect,
// cancel), as BankID documents it.

export interface BankIdRequirement {
  pinCode?: boolean;
  mrtd?: boolean;
  cardReader?: 'class1' | 'class2';
  certificatePolicies?: string[];
  /** Restricts who may complete the order; in v6 it no longer starts anything. */
  personalNumber?: string;
}

export type UserVisibleDataFormat = 'plaintext' | 'simpleMarkdownV1';

export interface AuthRequest {
  endUserIp: string;
  requirement?: BankIdRequirement;
  /** Base64 of UTF-8 text. */
  userVisibleData?: string;
  userVisibleDataFormat?: UserVisibleDataFormat;
  returnUrl?: string;
  returnRisk?: boolean;
  /** Device data for BankID's risk assessment: one of the two (docs/bankid.md, "Device data"). */
  web?: BankIdWebDevice;
  app?: BankIdAppDevice;
}

export interface BankIdWebDevice {
  referringDomain?: string;
  /** At most 256 characters: BankID answers 400 to longer ones. */
  userAgent?: string;
  deviceIdentifier?: string;
}

export interface BankIdAppDevice {
  appIdentifier?: string;
  deviceOS?: string;
  deviceModelName?: string;
  deviceIdentifier?: string;
}

/** The payment the app shows (docs/bankid.md, "Payment"). */
export interface BankIdUserVisibleTransaction {
  transactionType: 'card' | 'npa';
  recipient: { name: string };
  /** card only; `amount` with a comma and two decimals, `currency` ISO 4217. */
  money?: { amount: string; currency: string };
  riskWarning?: string;
}

/** payment: an auth order's fields plus the transaction, the RP's risk flags and hidden data. */
export interface PaymentRequest extends AuthRequest {
  userVisibleTransaction: BankIdUserVisibleTransaction;
  riskFlags?: string[];
  userNonVisibleData?: string;
}

export interface SignRequest extends Omit<AuthRequest, 'userVisibleData'> {
  /** Base64 of UTF-8 text; required for sign. */
  userVisibleData: string;
  /** Base64 given by the RP: signed, never shown. */
  userNonVisibleData?: string;
}

/** phone/auth and phone/sign: the user is on a call with the RP, so there is no endUserIp and no QR. */
export interface PhoneAuthRequest {
  personalNumber: string;
  callInitiator: 'user' | 'RP';
  requirement?: BankIdRequirement;
  userVisibleData?: string;
  userVisibleDataFormat?: UserVisibleDataFormat;
}

export interface PhoneSignRequest extends PhoneAuthRequest {
  userVisibleData: string;
  userNonVisibleData?: string;
}

export const orderResponseSchema = z.object({
  orderRef: z.string().min(1),
  autoStartToken: z.string().min(1),
  qrStartToken: z.string().min(1),
  qrStartSecret: z.string().min(1),
});
export type OrderResponse = z.infer<typeof orderResponseSchema>;

/** phone/auth and phone/sign answer only the order reference. */
export const phoneOrderResponseSchema = z.object({ orderRef: z.string().min(1) });
export type PhoneOrderResponse = z.infer<typeof phoneOrderResponseSchema>;

/**
 * The collect envelope. Only orderRef and status must be as documented; the hint code and the
 * completion data are read field by field (bankid-collect.ts), so an optional field in an
 * unexpected shape never makes a whole answer unreadable (docs/bankid.md, "Tolerant collect").
 */
export const collectResponseSchema = z.object({
  orderRef: z.string(),
  status: z.enum(['pending', 'failed', 'complete']),
  hintCode: z.unknown().optional(),
  completionData: z.unknown().optional(),
});
export type CollectResponse = z.infer<typeof collectResponseSchema>;

export const cancelResponseSchema = z.object({});

/**
 * The digital ID card API's verify answer (`/rp/v1/verify`, docs/idcard.md): the holder, BankID's
 * verification of the card (a base64 enveloping XAdES) and the holder's own authentication that
 * opened it (BankID's XML signature and OCSP response, as completionData has them).
 */
export const idCardVerifyResponseSchema = z.object({
  transactionType: z.string(),
  user: z.object({
    personalNumber: z.string().regex(/^\d{12}$/),
    givenName: z.string(),
    surname: z.string(),
    name: z.string(),
    age: z.number().int().min(0).max(150),
  }),
  verification: z.object({ verificationId: z.string().min(1), verifiedAt: z.string().min(1), signature: z.string().min(1) }),
  authentication: z.object({
    identifiedAt: z.string().min(1),
    orderRef: z.string().min(1),
    signature: z.string().min(1),
    ocspResponse: z.string().min(1),
  }),
});
export type IdCardVerifyResponse = z.infer<typeof idCardVerifyResponseSchema>;

/** `{errorCode, details}`: the body of every non-200 answer. */
export const errorResponseSchema = z.object({ errorCode: z.string(), details: z.string().optional() });

/** The documented error codes, spelled as BankID spells them; codes are matched case-insensitively. */
export const BANKID_ERROR_CODES = [
  'alreadyInProgress',
  'invalidParameters',
  'unauthorized',
  'notFound',
  'methodNotAllowed',
  'requestTimeout',
  'unsupportedMediaType',
  'tooManyRequests',
  'internalError',
  'maintenance',
] as const;
export type BankIdErrorCode = (typeof BANKID_ERROR_CODES)[number];

const byLowerCase = new Map<string, string>(BANKID_ERROR_CODES.map((code) => [code.toLowerCase(), code]));

/** `Maintenance` and `maintenance` are the same code; an unknown code is kept as it came. */
export const canonicalErrorCode = (code: string): string => byLowerCase.get(code.toLowerCase()) ?? code;
