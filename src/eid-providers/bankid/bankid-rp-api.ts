import { z } from 'zod';

// The BankID Relying Party API v6.0 wire format (auth, collect, cancel), as BankID documents it.

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
}

export const orderResponseSchema = z.object({
  orderRef: z.string().min(1),
  autoStartToken: z.string().min(1),
  qrStartToken: z.string().min(1),
  qrStartSecret: z.string().min(1),
});
export type OrderResponse = z.infer<typeof orderResponseSchema>;

const completionDataSchema = z.object({
  user: z.object({ personalNumber: z.string(), name: z.string(), givenName: z.string(), surname: z.string() }),
  device: z.object({ ipAddress: z.string(), uhi: z.string().optional() }).optional(),
  bankIdIssueDate: z.string().optional(),
  stepUp: z.record(z.string(), z.unknown()).optional(),
  signature: z.string().optional(),
  ocspResponse: z.string().optional(),
  risk: z.string().optional(),
});
export type CompletionData = z.infer<typeof completionDataSchema>;

export const collectResponseSchema = z.discriminatedUnion('status', [
  // Hint codes are an open set: BankID adds new ones without notice, so any string is kept.
  z.object({ orderRef: z.string(), status: z.literal('pending'), hintCode: z.string().optional() }),
  z.object({ orderRef: z.string(), status: z.literal('failed'), hintCode: z.string().optional() }),
  z.object({ orderRef: z.string(), status: z.literal('complete'), completionData: completionDataSchema }),
]);
export type CollectResponse = z.infer<typeof collectResponseSchema>;

export const cancelResponseSchema = z.object({});

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
