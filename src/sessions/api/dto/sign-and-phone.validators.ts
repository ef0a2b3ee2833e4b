import { registerDecorator, type ValidationOptions } from 'class-validator';

/** A sign text is at most 40,000 characters once base64-encoded (docs/api.md). */
export const SIGN_TEXT_MAX_BASE64 = 40_000;
/** userNonVisibleData is at most 200,000 characters of base64 (docs/api.md). */
export const NON_VISIBLE_DATA_MAX = 200_000;

/** The length of the base64 encoding of a text's UTF-8 bytes. */
export const base64LengthOf = (text: string): number => 4 * Math.ceil(Buffer.byteLength(text, 'utf8') / 3);

/** Text whose UTF-8 base64 encoding fits in `max` characters: how the apps limit userVisibleData (docs/api.md). */
export function FitsBase64(max: number, options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'fitsBase64',
      target: target.constructor,
      propertyName,
      constraints: [max],
      options: { message: `${propertyName} must encode to at most ${max} base64 characters (UTF-8)`, ...options },
      validator: { validate: (value: unknown) => typeof value === 'string' && base64LengthOf(value) <= max },
    });
}
