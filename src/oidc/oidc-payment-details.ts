import { plainToInstance } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsIn, IsOptional, validateSync, type ValidationError } from 'class-validator';
import { RISK_FLAGS, UserVisibleTransactionDto } from '../eid-providers/payment-transaction.dto.js';

/** The RAR type of a BankID payment over OIDC (docs/oidc.md, "Payment"). */
export const BANKID_PAYMENT = 'bankid_payment';

/**
 * The resource server a payment's access token is for: oidc-provider grants authorization_details
 * only with a resource indicator, so a payment request defaults to this one.
 */
export const PAYMENT_RESOURCE = 'urn:eidgw:bankid-payment';

/** One `authorization_details` entry: the payment's userVisibleTransaction and riskFlags, field for field. */
class BankIdPaymentDetail extends UserVisibleTransactionDto {
  @IsIn([BANKID_PAYMENT])
  type: typeof BANKID_PAYMENT;

  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @ArrayMaxSize(RISK_FLAGS.length)
  @IsIn(RISK_FLAGS, { each: true })
  riskFlags?: (typeof RISK_FLAGS)[number][];
}

export interface PaymentOrder {
  userVisibleTransaction: UserVisibleTransactionDto;
  riskFlags?: (typeof RISK_FLAGS)[number][];
}

const messagesOf = (errors: ValidationError[], parent = ''): string[] =>
  errors.flatMap((error) => [
    ...Object.values(error.constraints ?? {}).map((message) => `${parent}${message}`),
    ...messagesOf(error.children ?? [], `${parent}${error.property}.`),
  ]);

/** What is wrong with a bankid_payment detail, in the payment API's words; undefined when nothing. */
export function paymentDetailProblem(detail: unknown): string | undefined {
  const errors = validateSync(plainToInstance(BankIdPaymentDetail, detail), { whitelist: true, forbidNonWhitelisted: true });
  return errors.length ? messagesOf(errors).join('; ') : undefined;
}

/**
 * The payment an authorization request asks for: its one bankid_payment detail (the library has
 * checked each detail's shape with paymentDetailProblem), or undefined for a login.
 */
export function paymentOrderOf(authorizationDetails: unknown): { order: PaymentOrder } | { problem: string } | undefined {
  if (typeof authorizationDetails !== 'string') return undefined;
  const details = JSON.parse(authorizationDetails) as { type?: unknown }[];
  const payments = details.filter((detail) => detail.type === BANKID_PAYMENT) as unknown as BankIdPaymentDetail[];
  if (payments.length === 0) return undefined;
  if (payments.length > 1) return { problem: 'one bankid_payment per authorization request' };
  const { transactionType, recipient, money, riskWarning, riskFlags } = payments[0];
  return {
    order: {
      userVisibleTransaction: { transactionType, recipient, ...(money ? { money } : {}), ...(riskWarning ? { riskWarning } : {}) },
      ...(riskFlags?.length ? { riskFlags } : {}),
    },
  };
}
