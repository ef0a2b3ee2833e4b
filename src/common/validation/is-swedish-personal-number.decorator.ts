import { registerDecorator, type ValidationOptions } from 'class-validator';
import { isSwedishPersonalNumber } from './swedish-personal-number.js';

export function IsSwedishPersonalNumber(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isSwedishPersonalNumber',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be 12 digits (YYYYMMDDNNNN) ending in a valid check digit`, ...options },
      validator: { validate: isSwedishPersonalNumber },
    });
}
