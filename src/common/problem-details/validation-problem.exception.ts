import type { ValidationError } from 'class-validator';

export interface FieldError {
  /** JSON Pointer (RFC 6901) to the offending member, as in RFC 9457's own example. */
  pointer: string;
  detail: string;
}

/** A request body, query or path that failed validation: 400 with one entry per field. */
export class ValidationProblemException extends Error {
  constructor(readonly errors: FieldError[]) {
    super('Request validation failed');
    this.name = 'ValidationProblemException';
  }

  static fromClassValidator(errors: ValidationError[]): ValidationProblemException {
    return new ValidationProblemException(flatten(errors, ''));
  }
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function flatten(errors: ValidationError[], parent: string): FieldError[] {
  return errors.flatMap((error) => {
    const pointer = `${parent}/${escapePointer(error.property)}`;
    const own = Object.values(error.constraints ?? {}).map((detail) => ({ pointer, detail }));
    return [...own, ...flatten(error.children ?? [], pointer)];
  });
}
