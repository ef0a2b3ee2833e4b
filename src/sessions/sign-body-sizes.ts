import { ValidationProblemException, type FieldError } from '../common/problem-details/validation-problem.exception.js';
import { base64LengthOf, NON_VISIBLE_DATA_MAX, SIGN_TEXT_MAX_BASE64 } from './dto/sign-and-phone.validators.js';

/** The routes whose bodies may be large: a sign text and hidden data (docs/api.md, "Signing and the phone channel", "Payment"). */
export const SIGN_ROUTES: ReadonlySet<string> = new Set([
  '/api/v1/sign/:provider/start',
  '/api/v1/phone/sign/:provider/start',
  '/api/v1/payment/:provider/start',
]);

/**
 * The two large fields of a sign body, held to BankID's limits before the input guard reads them,
 * so the guard's linear work on these routes stays that of a body of the usual size
 * (docs/protection.md, "Linear time"). Everything else is validated later, in its usual place.
 */
export function assertSignFieldSizes(body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  const { userVisibleData, userNonVisibleData } = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  if (typeof userVisibleData === 'string' && base64LengthOf(userVisibleData) > SIGN_TEXT_MAX_BASE64) {
    errors.push({
      pointer: '/userVisibleData',
      detail: `userVisibleData must encode to at most ${SIGN_TEXT_MAX_BASE64} base64 characters (UTF-8)`,
    });
  }
  if (typeof userNonVisibleData === 'string' && userNonVisibleData.length > NON_VISIBLE_DATA_MAX) {
    errors.push({ pointer: '/userNonVisibleData', detail: `userNonVisibleData must be at most ${NON_VISIBLE_DATA_MAX} characters` });
  }
  if (errors.length) throw new ValidationProblemException(errors);
}
