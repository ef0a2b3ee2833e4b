import { defaultMetadataStorage as transformerMetadata } from 'class-transformer/cjs/storage.js';
import { TransformationType } from 'class-transformer';
import { getMetadataStorage, ValidationTypes, type MetadataStorage, type ValidationArguments } from 'class-validator';

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

type Instance = Record<string, unknown>;
type Constructor = new () => object;
type Test = (entity: Instance, value: unknown) => boolean | 'undecided';

/** A property's checks in class-validator's order; `undecided` when only the full pipe can answer. */
interface PropertyPlan {
  name: string;
  /** @IsOptional, @ValidateIf: the property is checked only when all hold. */
  conditions: ((entity: Instance, value: unknown) => boolean)[];
  tests: Test[];
}

/**
 * Accepts a body or query the way the global ValidationPipe (whitelist, forbidNonWhitelisted,
 * transform) would, or answers `undefined` when it cannot tell: the caller then runs the pipe, so every
 * refusal and its problem details stay the pipe's own (docs/architecture.md, "Validation").
 *
 * The plan is read once from the decorators' metadata, so a request pays for the validators
 * themselves (the same functions class-validator calls), not for collecting the metadata, building
 * error objects and class-transformer's walk. It handles what the hot bodies are made of: scalar
 * properties and flat objects of scalars. A nested or transformed property, an array, a
 * promise-returning validator: undecided.
 */
export function compileValidation<T extends object>(metatype: new () => T): ((value: unknown) => T | undefined) | null {
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(metatype, undefined as unknown as string, false, false, undefined);
  if (metadatas.length === 0 || classTransforms(metatype)) return null;
  const plans = new Map<string, PropertyPlan>();
  for (const metadata of metadatas) {
    const plan = plans.get(metadata.propertyName) ?? { name: metadata.propertyName, conditions: [], tests: [] };
    plans.set(metadata.propertyName, plan);
    addToPlan(plan, metadata, metatype);
  }
  for (const plan of plans.values()) if (propertyTransforms(metatype, plan.name)) plan.tests = [() => 'undecided'];
  const ordered = [...plans.values()];

  return (value: unknown): T | undefined => {
    const entity = instanceOf(metatype, value, plans);
    if (!entity) return undefined;
    for (const plan of ordered) {
      const property = entity[plan.name];
      if (!plan.conditions.every((holds) => holds(entity, property))) continue;
      for (const test of plan.tests) if (test(entity, property) !== true) return undefined;
    }
    return entity as T;
  };
}

function addToPlan(plan: PropertyPlan, metadata: ValidationMetadata, metatype: Constructor): void {
  switch (metadata.type) {
    case ValidationTypes.CONDITIONAL_VALIDATION:
      plan.conditions.push(metadata.constraints[0] as PropertyPlan['conditions'][number]);
      return;
    case ValidationTypes.WHITELIST:
      return;
    case ValidationTypes.CUSTOM_VALIDATION:
    case ValidationTypes.IS_DEFINED: {
      const constraints = getMetadataStorage().getTargetValidatorConstraints(metadata.constraintCls);
      const test: Test = (entity, value) => {
        if (metadata.validateIf && !metadata.validateIf(entity, value)) return true;
        const args: ValidationArguments = {
          targetName: metatype.name,
          property: plan.name,
          object: entity,
          value,
          constraints: metadata.constraints,
        };
        for (const constraint of constraints) {
          if (constraint.async) return 'undecided';
          const valid: unknown = constraint.instance.validate(value, args);
          if (valid !== true) return valid === false ? false : 'undecided';
        }
        return true;
      };
      // class-validator runs a property's IS_DEFINED checks before its others.
      if (metadata.type === ValidationTypes.IS_DEFINED) plan.tests.unshift(test);
      else plan.tests.push(test);
      return;
    }
    default:
      // Nested and promise validation: the full pipe.
      plan.tests.push(() => 'undecided');
  }
}

/** The instance class-transformer would build from a plain object of scalars and flat objects; null otherwise. */
function instanceOf(metatype: Constructor, value: unknown, plans: ReadonlyMap<string, PropertyPlan>): Instance | null {
  if (!isPlainObject(value)) return null;
  const entity = new metatype() as Instance;
  for (const key of Object.keys(value)) {
    // An unknown property is refused by the pipe, with its own message.
    if (!plans.has(key)) return null;
    const item = (value as Instance)[key];
    if (typeof item !== 'object' || item === null) entity[key] = item;
    else if (isPlainObject(item) && Object.values(item).every(isScalar)) entity[key] = { ...item };
    else return null;
  }
  return entity;
}

const isScalar = (value: unknown): boolean => value === null || (typeof value !== 'object' && typeof value !== 'function');

function isPlainObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  // Object.prototype of any realm (the tests' included), or none (a parsed query).
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

function classTransforms(metatype: Constructor): boolean {
  return (
    transformerMetadata.findExposeMetadata(metatype, undefined as unknown as string) !== undefined ||
    transformerMetadata.findExcludeMetadata(metatype, undefined as unknown as string) !== undefined
  );
}

function propertyTransforms(metatype: Constructor, property: string): boolean {
  return (
    transformerMetadata.findTypeMetadata(metatype, property) !== undefined ||
    transformerMetadata.findTransformMetadatas(metatype, property, TransformationType.PLAIN_TO_CLASS).length > 0 ||
    transformerMetadata.findExposeMetadata(metatype, property) !== undefined ||
    transformerMetadata.findExcludeMetadata(metatype, property) !== undefined
  );
}
