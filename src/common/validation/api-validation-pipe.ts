import { ValidationPipe } from '@nestjs/common';
import { ValidationProblemException } from '../problem-details/validation-problem.exception.js';

/** Every route's body, query and parameter validation: the global pipe, and the hot routes' (docs/architecture.md, "Hot routes"). */
export const apiValidationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  exceptionFactory: (errors) => ValidationProblemException.fromClassValidator(errors),
});
