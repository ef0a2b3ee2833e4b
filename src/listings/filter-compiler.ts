import type { FieldError } from '../common/problem-details/validation-problem.exception.js';
import type { ColumnType, ListingColumn } from './listing-definition.js';
import type { SqlParameters } from './sql-parameters.js';

type FilterType = 'text' | 'number' | 'date' | 'set';

const OPERATORS: Record<Exclude<FilterType, 'set'>, readonly string[]> = {
  text: ['equals', 'notEqual', 'contains', 'startsWith', 'endsWith', 'blank', 'notBlank'],
  number: ['equals', 'notEqual', 'greaterThan', 'lessThan', 'blank', 'notBlank'],
  date: ['inRange', 'greaterThan', 'lessThan', 'blank', 'notBlank'],
};
const FILTER_TYPES_OF: Record<ColumnType, readonly FilterType[]> = { text: ['text', 'set'], number: ['number'], date: ['date'] };
const KEYS_OF: Record<FilterType, readonly string[]> = {
  text: ['filterType', 'type', 'filter'],
  number: ['filterType', 'type', 'filter'],
  date: ['filterType', 'type', 'dateFrom', 'dateTo'],
  set: ['filterType', 'values'],
};
const COMBINED_KEYS = ['filterType', 'operator', 'conditions'];
const NUMBER_COMPARISONS: Record<string, string> = { equals: '=', notEqual: 'IS DISTINCT FROM', greaterThan: '>', lessThan: '<' };

export const MAX_CONDITIONS = 10;
export const MAX_TEXT_LENGTH = 500;
export const MAX_SET_VALUES = 1_000;
// The seed's date form, plus the `YYYY-MM-DD 00:00:00` that AG Grid's date filter sends.
const DATE = /^(\d{4})-(\d{2})-(\d{2})(?: 00:00:00)?$/;
const DAY_MS = 86_400_000;

type Filter = Record<string, unknown>;

/**
 * Compiles a filterModel into one SQL condition over the listing's whitelisted columns. Values go into
 * `parameters`; the SQL text holds only column expressions from the code and fixed operators. Every
 * mistake in the request is collected, with a JSON Pointer to it, into `errors`.
 */
export function compileFilterModel(
  columns: Record<string, ListingColumn>,
  filterModel: Record<string, unknown> | undefined,
  parameters: SqlParameters,
  errors: FieldError[],
): string {
  const conditions: string[] = [];
  for (const [colId, filter] of Object.entries(filterModel ?? {})) {
    const pointer = `/filterModel/${escapePointer(colId)}`;
    // hasOwn: `constructor` or `__proto__` must not resolve through the prototype.
    const column = Object.hasOwn(columns, colId) ? columns[colId] : undefined;
    if (!column) {
      errors.push({ pointer, detail: `unknown column; filterable columns are ${Object.keys(columns).join(', ')}` });
      continue;
    }
    const condition = new ColumnFilterCompiler(column, parameters, errors).compile(filter, pointer);
    if (condition) conditions.push(condition);
  }
  return conditions.length > 0 ? conditions.join(' AND ') : 'TRUE';
}

export const escapePointer = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

class ColumnFilterCompiler {
  constructor(
    private readonly column: ListingColumn,
    private readonly parameters: SqlParameters,
    private readonly errors: FieldError[],
  ) {}

  compile(filter: unknown, pointer: string): string | null {
    if (!isObject(filter)) return this.fail(pointer, 'must be a filter object');
    if (!('operator' in filter) && !('conditions' in filter)) return this.single(filter, pointer);

    if (!this.knownKeys(filter, COMBINED_KEYS, pointer)) return null;
    if (filter.operator !== 'AND' && filter.operator !== 'OR') return this.fail(`${pointer}/operator`, 'must be AND or OR');
    const { conditions } = filter;
    if (!Array.isArray(conditions) || conditions.length === 0 || conditions.length > MAX_CONDITIONS) {
      return this.fail(`${pointer}/conditions`, `must be an array of 1 to ${MAX_CONDITIONS} filters`);
    }
    const compiled = conditions.map((condition, i) => {
      const conditionPointer = `${pointer}/conditions/${i}`;
      if (isObject(condition) && filter.filterType !== undefined && condition.filterType !== filter.filterType) {
        return this.fail(`${conditionPointer}/filterType`, 'must match the filterType of the combined filter');
      }
      return isObject(condition) && ('operator' in condition || 'conditions' in condition)
        ? this.fail(conditionPointer, 'conditions cannot be nested')
        : this.compile(condition, conditionPointer);
    });
    if (compiled.some((sql) => sql === null)) return null;
    return `(${compiled.join(` ${filter.operator} `)})`;
  }

  private single(filter: Filter, pointer: string): string | null {
    const filterType = filter.filterType as FilterType;
    const allowed = FILTER_TYPES_OF[this.column.type];
    if (!allowed.includes(filterType)) return this.fail(`${pointer}/filterType`, `must be ${allowed.join(' or ')} for this column`);
    if (!this.knownKeys(filter, KEYS_OF[filterType], pointer)) return null;
    if (filterType === 'set') return this.set(filter.values, `${pointer}/values`);

    const type = filter.type;
    if (typeof type !== 'string' || !OPERATORS[filterType].includes(type)) {
      return this.fail(`${pointer}/type`, `must be one of ${OPERATORS[filterType].join(', ')}`);
    }
    const column = this.column.sql;
    if (type === 'blank') return filterType === 'text' ? `(${column} IS NULL OR ${column} = '')` : `${column} IS NULL`;
    if (type === 'notBlank') return filterType === 'text' ? `(${column} IS NOT NULL AND ${column} <> '')` : `${column} IS NOT NULL`;
    if (filterType === 'text') return this.text(type, filter.filter, `${pointer}/filter`);
    if (filterType === 'number') return this.number(type, filter.filter, `${pointer}/filter`);
    return this.date(type, filter, pointer);
  }

  // Text comparisons ignore case, as grid text filters do; "not equal" keeps rows without a value.
  private text(type: string, value: unknown, pointer: string): string | null {
    if (typeof value !== 'string' || value.length > MAX_TEXT_LENGTH) {
      return this.fail(pointer, `must be a string of at most ${MAX_TEXT_LENGTH} characters`);
    }
    const column = this.column.sql;
    switch (type) {
      case 'equals':
        return `lower(${column}) = lower(${this.parameters.add(value)})`;
      case 'notEqual':
        return `lower(${column}) IS DISTINCT FROM lower(${this.parameters.add(value)})`;
      case 'contains':
        return `${column} ILIKE ${this.parameters.add(`%${escapeLike(value)}%`)}`;
      case 'startsWith':
        return `${column} ILIKE ${this.parameters.add(`${escapeLike(value)}%`)}`;
      default:
        return `${column} ILIKE ${this.parameters.add(`%${escapeLike(value)}`)}`;
    }
  }

  private number(type: string, value: unknown, pointer: string): string | null {
    if (typeof value !== 'number' || !Number.isFinite(value)) return this.fail(pointer, 'must be a finite number');
    // numeric: a fractional filter on an integer column compares rather than failing to cast.
    const parameter = `${this.parameters.add(value)}::numeric`;
    const column = this.column.sql;
    return `${column} ${NUMBER_COMPARISONS[type]} ${parameter}`;
  }

  // Whole UTC days: inRange includes both ends; greaterThan starts after the day, lessThan ends before it.
  private date(type: string, filter: Filter, pointer: string): string | null {
    const from = this.day(filter.dateFrom, `${pointer}/dateFrom`);
    if (type !== 'inRange') {
      if (from === null) return null;
      if (filter.dateTo !== undefined && filter.dateTo !== null) return this.fail(`${pointer}/dateTo`, `is only for inRange`);
      const column = this.column.sql;
      return type === 'greaterThan'
        ? `${column} >= ${this.parameters.add(new Date(from + DAY_MS))}`
        : `${column} < ${this.parameters.add(new Date(from))}`;
    }
    const to = this.day(filter.dateTo, `${pointer}/dateTo`);
    if (from === null || to === null) return null;
    if (to < from) return this.fail(`${pointer}/dateTo`, 'must not be before dateFrom');
    const column = this.column.sql;
    return `(${column} >= ${this.parameters.add(new Date(from))} AND ${column} < ${this.parameters.add(new Date(to + DAY_MS))})`;
  }

  private set(values: unknown, pointer: string): string | null {
    if (
      !Array.isArray(values) ||
      values.length > MAX_SET_VALUES ||
      !values.every((v) => v === null || (typeof v === 'string' && v.length <= MAX_TEXT_LENGTH))
    ) {
      return this.fail(pointer, `must be an array of at most ${MAX_SET_VALUES} strings (null for blank)`);
    }
    // An empty set selects nothing, as an empty set filter in a grid shows no rows.
    if (values.length === 0) return 'FALSE';
    const column = this.column.sql;
    const strings = values.filter((v): v is string => v !== null);
    const matches = strings.length > 0 ? `${column} = ANY(${this.parameters.add(strings)}::text[])` : null;
    const blank = values.includes(null) ? `${column} IS NULL` : null;
    return matches && blank ? `(${matches} OR ${blank})` : (matches ?? blank)!;
  }

  private day(value: unknown, pointer: string): number | null {
    const match = typeof value === 'string' ? DATE.exec(value) : null;
    const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
    // Date.UTC rolls 2026-02-30 over into March: a date that does not round-trip does not exist.
    if (!match || new Date(ms).toISOString().slice(0, 10) !== (value as string).slice(0, 10)) {
      return this.fail(pointer, 'must be a date in YYYY-MM-DD form');
    }
    return ms;
  }

  private knownKeys(filter: Filter, allowed: readonly string[], pointer: string): boolean {
    const unknown = Object.keys(filter).filter((key) => !allowed.includes(key));
    for (const key of unknown)
      this.errors.push({ pointer: `${pointer}/${escapePointer(key)}`, detail: 'is not a property of this filter' });
    return unknown.length === 0;
  }

  private fail(pointer: string, detail: string): null {
    this.errors.push({ pointer, detail });
    return null;
  }
}

const isObject = (value: unknown): value is Filter => typeof value === 'object' && value !== null && !Array.isArray(value);

/** LIKE treats `%`, `_` and the escape character specially; a filter value means them literally. */
const escapeLike = (value: string): string => value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
