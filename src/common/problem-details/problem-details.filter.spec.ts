import { BadRequestException, ValidationPipe } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsString, ValidateNested } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { DomainException } from './domain.exception.js';
import { ProblemDetailsFilter } from './problem-details.filter.js';
import { ValidationProblemException } from './validation-problem.exception.js';

class ItemDto {
  @IsInt()
  count: number;
}

class OrderDto {
  @IsString()
  name: string;

  @ValidateNested({ each: true })
  @Type(() => ItemDto)
  items: ItemDto[];
}

// The application's own pipe settings (app.module.ts), so the exception is the one clients' requests raise.
const pipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  exceptionFactory: (errors) => ValidationProblemException.fromClassValidator(errors),
});

const request = { url: '/api/v1/orders?draft=1' } as FastifyRequest;
const problemOf = (exception: unknown) => new ProblemDetailsFilter().toProblem(exception, request).problem;

async function validationFailure(body: unknown): Promise<unknown> {
  try {
    await pipe.transform(body, { type: 'body', metatype: OrderDto });
  } catch (error) {
    return error;
  }
  throw new Error('the body passed validation');
}

describe(ProblemDetailsFilter.name, () => {
  it('should answer a validation failure with validation_failed, its type URN and a JSON pointer per refused member', async () => {
    const exception = await validationFailure({ name: 7, items: [{ count: 1 }, { count: 'two' }], 'a/b': true });
    expect(problemOf(exception)).toEqual({
      type: 'urn:eid-gateway:problem:validation_failed',
      title: 'Validation failed',
      status: 400,
      detail: 'The request failed validation; see errors.',
      instance: '/api/v1/orders',
      code: 'validation_failed',
      errors: [
        { pointer: '/a~1b', detail: 'property a/b should not exist' },
        { pointer: '/name', detail: 'name must be a string' },
        { pointer: '/items/1/count', detail: 'count must be an integer number' },
      ],
    });
  });

  it("should give a service's own field check the same code as the pipe's", () => {
    const exception = new ValidationProblemException([{ pointer: '/returnUrl', detail: 'returnUrl must use https' }]);
    expect(problemOf(exception)).toMatchObject({ code: 'validation_failed', errors: [{ pointer: '/returnUrl' }] });
  });

  it('should form the type of a validation failure as it forms every other code', () => {
    const domain = problemOf(new DomainException('qr_invalid', 'Not a frame.'));
    const validation = problemOf(new ValidationProblemException([]));
    expect(validation.type.replace(String(validation.code), '')).toBe(domain.type.replace(String(domain.code), ''));
  });

  it("should leave the input guard's refusal without a code", () => {
    const problem = problemOf(new BadRequestException('The input guard refused the request: its body looks like SQL injection.'));
    expect(problem).toMatchObject({ type: 'about:blank', status: 400 });
    expect(problem).not.toHaveProperty('code');
  });
});
