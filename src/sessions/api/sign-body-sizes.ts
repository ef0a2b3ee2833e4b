import { ValidationProblemException, type FieldError } from '../../common/problem-details/validation-problem.exception.js';
import { base64LengthOf, NON_VISIBLE_DATA_MAX, SIGN_TEXT_MAX_BASE64 } from './dto/sign-and-phone.validators.js';

/** The routes whose bodies may be large: a sign text and hidden data (docs/api.md, "Signing and the phone channel", "Payment"). */
export const SIGN_ROUTES: ReadonlySet<string> = new Set([
  '/api/v1/sign/:provider/start',
  '/api/v1/phone/sign/:provider/start',
  '/api/v1/payment/:provider/start',
]);

/** Everything of a sign body but its text and hidden data, as JSON: metadata (1 KiB) and a few short fields need far less. */
export const SIGN_OTHER_FIELDS_MAX_BYTES = 16 * 1024;

/** userNonVisibleData, once checked to be base64: data the service only decodes, which the input guard need not read. */
export const SIGN_INERT_FIELDS: ReadonlySet<string> = new Set(['userNonVisibleData']);

// Linear: one character class, then at most two `=`, anchored at both ends.
const BASE64_ALPHABET = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * A sign body held to the limits of docs/api.md before the input guard reads it, so the guard's work on these
 * routes stays that of a body of the usual size (docs/protection.md, "Linear time"): the text to its
 * limit, the hidden data to its limit and to base64 (the guard then skips it, SIGN_INERT_FIELDS), and
 * everything else together to SIGN_OTHER_FIELDS_MAX_BYTES. The rest is validated later, in its usual place.
 */
export function assertSignFieldSizes(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const { userVisibleData, userNonVisibleData, ...others } = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  if (typeof userVisibleData === 'string' && base64LengthOf(userVisibleData) > SIGN_TEXT_MAX_BASE64) {
    errors.push({
      pointer: '/userVisibleData',
      detail: `userVisibleData must encode to at most ${SIGN_TEXT_MAX_BASE64} base64 characters (UTF-8)`,
    });
  }
  if (typeof userNonVisibleData === 'string' && userNonVisibleData.length > NON_VISIBLE_DATA_MAX) {
    errors.push({ pointer: '/userNonVisibleData', detail: `userNonVisibleData must be at most ${NON_VISIBLE_DATA_MAX} characters` });
  } else if (userNonVisibleData !== undefined && (typeof userNonVisibleData !== 'string' || !BASE64_ALPHABET.test(userNonVisibleData))) {
    errors.push({ pointer: '/userNonVisibleData', detail: 'userNonVisibleData must be base64' });
  }
  if (Buffer.byteLength(JSON.stringify(others)) > SIGN_OTHER_FIELDS_MAX_BYTES) {
    errors.push({
      pointer: '',
      detail: `the fields other than userVisibleData and userNonVisibleData must be at most ${SIGN_OTHER_FIELDS_MAX_BYTES} bytes as JSON`,
    });
  }
  if (errors.length) throw new ValidationProblemException(errors);
}
