import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { Transform, Type } from 'class-transformer';
import { IsDefined, IsInt, IsOptional, IsString, registerDecorator, ValidateIf, ValidateNested } from 'class-validator';
import { compileValidation } from './compiled-validation.js';

// The pipe as Nest ships it, with the global pipe's options: what the compiled checks must agree with.
const nestPipe = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true });
const piped = (value: unknown, metatype: ArgumentMetadata['metatype'], type: ArgumentMetadata['type'] = 'body') =>
  nestPipe.transform(structuredClone(value), { type, metatype }).then(
    (entity: unknown) => ({ entity }),
    () => 'refused' as const,
  );

describe('compileValidation', () => {
  describe('on decorators beyond scalar checks', () => {
    class Nested {
      @IsString() name: string;
    }
    class Shapes {
      @IsOptional() @Type(() => Number) @IsInt() count?: number;
      @IsOptional()
      @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
      @IsString()
      label?: string;
      @IsOptional() @ValidateNested() @Type(() => Nested) nested?: Nested;
      @ValidateIf((o: Shapes) => o.label === 'kind') @IsString() kind?: string;
      @IsDefined() required: unknown;
    }
    const shapes = compileValidation(Shapes)!;

    it.each([
      ['a plain object it can decide', { required: 1, kind: 'x' }, true],
      ['a ValidateIf that holds and fails', { required: 1, label: 'kind' }, false],
      ['a missing IsDefined', {}, false],
      ['a property class-transformer converts', { required: 1, count: '5' }, false],
      ['a property class-transformer rewrites', { required: 1, label: ' a ' }, false],
      ['a nested object', { required: 1, nested: { name: 'a' } }, false],
    ])('%s', async (_name, value, decided) => {
      const accepted = shapes(structuredClone(value));
      expect(accepted !== undefined).toBe(decided);
      if (accepted) expect(await piped(value, Shapes)).toEqual({ entity: accepted });
    });

    it('should leave to the pipe a validator that answers other than true or false', () => {
      class Odd {
        @((target: object, propertyName: string) =>
          registerDecorator({
            name: 'odd',
            target: target.constructor,
            propertyName,
            validator: { validate: () => 'yes' as unknown as boolean },
          }))
        odd: string;
      }
      expect(compileValidation(Odd)!({ odd: 'a' })).toBeUndefined();
    });

    it('should not compile a class without any rule', () => {
      class Bare {
        name?: string;
      }
      expect(compileValidation(Bare)).toBeNull();
    });
  });
});
