import { ValidationPipe, type ArgumentMetadata, type Type } from '@nestjs/common';
import { ValidationProblemException } from '../problem-details/validation-problem.exception.js';
import { compileValidation } from './compiled-validation.js';

type Accept = ReturnType<typeof compileValidation>;

/**
 * Nest's ValidationPipe, with each body and query class's checks compiled once: a value they accept
 * is answered without the pipe's per-request metadata walk, anything else goes through the pipe as
 * before, so refusals are the pipe's own (docs/architecture.md, "Validation").
 */
class ApiValidationPipe extends ValidationPipe {
  private readonly compiled = new Map<Type<unknown>, Accept>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype, type } = metadata;
    if (metatype && (type === 'body' || type === 'query')) {
      const accepted = this.compiledFor(metatype)?.(value);
      if (accepted !== undefined) return accepted;
    }
    return super.transform(value, metadata);
  }

  private compiledFor(metatype: Type<unknown>): Accept {
    let accept = this.compiled.get(metatype);
    if (accept === undefined && !this.compiled.has(metatype)) {
      accept = this.toValidate({ metatype, type: 'body' }) ? compileValidation(metatype as Type<object>) : null;
      this.compiled.set(metatype, accept);
    }
    return accept ?? null;
  }
}

/** Every route's body, query and parameter validation: the global pipe, and the hot routes' (docs/architecture.md, "Hot routes"). */
export const apiValidationPipe = new ApiValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  exceptionFactory: (errors) => ValidationProblemException.fromClassValidator(errors),
});
