import { ValidationProblemException } from '../common/problem-details/validation-problem.exception.js';
import { defineListing } from './listing-definition.js';
import { compileListing } from './listing-query.js';
import type { ListingRequestDto } from './listing-request.dto.js';

const LISTING = defineListing({
  from: 'things t',
  columns: {
    name: { sql: 't.name', type: 'text' },
    count: { sql: 't.count', type: 'number' },
    createdAt: { sql: 't.created_at', type: 'date' },
  },
  tiebreaker: 't.id',
  defaultSort: [{ colId: 'createdAt', sort: 'desc' }],
});
const scope = (p: { add(v: unknown): string }) => `t.team_id = ${p.add('team-1')}`;

const compile = (request: Partial<ListingRequestDto>) => compileListing(LISTING, { startRow: 0, endRow: 10, ...request }, scope);

/** The WHERE clause after the scope, and the parameters after the scope's. */
function filterOf(filterModel: Record<string, unknown>): { where: string; parameters: unknown[] } {
  const { count } = compile({ filterModel });
  const where = /WHERE \(t\.team_id = \$1\) AND \((.*)\)$/.exec(count.sql)![1];
  return { where, parameters: count.parameters.slice(1) };
}

function errorsOf(request: Partial<ListingRequestDto>) {
  try {
    compile(request);
  } catch (error) {
    if (error instanceof ValidationProblemException) return error.errors;
    throw error;
  }
  throw new Error('expected a validation problem');
}

const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`);

describe(compileListing.name, () => {
  it('should select the whitelisted columns, scope, sort with the tiebreaker and fetch one extra row', () => {
    const { page, count, pageSize } = compileListing(LISTING, { startRow: 20, endRow: 30 }, scope);
    expect(pageSize).toBe(10);
    expect(page.sql).toBe(
      'SELECT t.name AS "name", t.count AS "count", t.created_at AS "createdAt" FROM things t ' +
        'WHERE (t.team_id = $1) AND (TRUE) ORDER BY t.created_at DESC, t.id LIMIT $2 OFFSET $3',
    );
    expect(page.parameters).toEqual(['team-1', 11, 20]);
    expect(count).toEqual({ sql: 'SELECT count(*)::int AS total FROM things t WHERE (t.team_id = $1) AND (TRUE)', parameters: ['team-1'] });
  });

  it('should sort by several columns in the order given', () => {
    const { page } = compile({
      sortModel: [
        { colId: 'count', sort: 'desc' },
        { colId: 'name', sort: 'asc' },
      ],
    });
    expect(page.sql).toContain('ORDER BY t.count DESC, t.name ASC, t.id LIMIT');
  });

  it.each<[string, Record<string, unknown>, string, unknown[]]>([
    ['text equals (any case)', { name: { filterType: 'text', type: 'equals', filter: 'Acme' } }, 'lower(t.name) = lower($2)', ['Acme']],
    [
      'text notEqual (keeps blanks)',
      { name: { filterType: 'text', type: 'notEqual', filter: 'Acme' } },
      'lower(t.name) IS DISTINCT FROM lower($2)',
      ['Acme'],
    ],
    ['text contains', { name: { filterType: 'text', type: 'contains', filter: 'cm' } }, 't.name ILIKE $2', ['%cm%']],
    ['text startsWith', { name: { filterType: 'text', type: 'startsWith', filter: 'Ac' } }, 't.name ILIKE $2', ['Ac%']],
    ['text endsWith', { name: { filterType: 'text', type: 'endsWith', filter: 'me' } }, 't.name ILIKE $2', ['%me']],
    ['text blank', { name: { filterType: 'text', type: 'blank' } }, "(t.name IS NULL OR t.name = '')", []],
    ['text notBlank', { name: { filterType: 'text', type: 'notBlank' } }, "(t.name IS NOT NULL AND t.name <> '')", []],
    ['number equals', { count: { filterType: 'number', type: 'equals', filter: 3 } }, 't.count = $2::numeric', [3]],
    ['number notEqual', { count: { filterType: 'number', type: 'notEqual', filter: 3 } }, 't.count IS DISTINCT FROM $2::numeric', [3]],
    ['number greaterThan', { count: { filterType: 'number', type: 'greaterThan', filter: 2.5 } }, 't.count > $2::numeric', [2.5]],
    ['number lessThan', { count: { filterType: 'number', type: 'lessThan', filter: -1 } }, 't.count < $2::numeric', [-1]],
    ['number blank', { count: { filterType: 'number', type: 'blank' } }, 't.count IS NULL', []],
    ['number notBlank', { count: { filterType: 'number', type: 'notBlank' } }, 't.count IS NOT NULL', []],
    [
      'date inRange (both days whole)',
      { createdAt: { filterType: 'date', type: 'inRange', dateFrom: '2026-11-01', dateTo: '2026-11-30' } },
      '(t.created_at >= $2 AND t.created_at < $3)',
      [day('2026-11-01'), day('2026-12-01')],
    ],
    [
      'date inRange in AG Grid form',
      { createdAt: { filterType: 'date', type: 'inRange', dateFrom: '2026-11-01 00:00:00', dateTo: '2026-11-01 00:00:00' } },
      '(t.created_at >= $2 AND t.created_at < $3)',
      [day('2026-11-01'), day('2026-11-02')],
    ],
    [
      'date greaterThan (after the day)',
      { createdAt: { filterType: 'date', type: 'greaterThan', dateFrom: '2026-11-01' } },
      't.created_at >= $2',
      [day('2026-11-02')],
    ],
    [
      'date lessThan (before the day)',
      { createdAt: { filterType: 'date', type: 'lessThan', dateFrom: '2026-11-01', dateTo: null } },
      't.created_at < $2',
      [day('2026-11-01')],
    ],
    ['date blank', { createdAt: { filterType: 'date', type: 'blank' } }, 't.created_at IS NULL', []],
    ['set', { name: { filterType: 'set', values: ['a', 'b'] } }, 't.name = ANY($2::text[])', [['a', 'b']]],
    ['set with blank', { name: { filterType: 'set', values: ['a', null] } }, '(t.name = ANY($2::text[]) OR t.name IS NULL)', [['a']]],
    ['set of blank only', { name: { filterType: 'set', values: [null] } }, 't.name IS NULL', []],
    ['empty set (nothing selected)', { name: { filterType: 'set', values: [] } }, 'FALSE', []],
    [
      'OR conditions',
      {
        name: {
          filterType: 'text',
          operator: 'OR',
          conditions: [
            { filterType: 'text', type: 'startsWith', filter: 'A' },
            { filterType: 'text', type: 'blank' },
          ],
        },
      },
      "(t.name ILIKE $2 OR (t.name IS NULL OR t.name = ''))",
      ['A%'],
    ],
    [
      'AND conditions',
      {
        count: {
          filterType: 'number',
          operator: 'AND',
          conditions: [
            { filterType: 'number', type: 'greaterThan', filter: 1 },
            { filterType: 'number', type: 'lessThan', filter: 9 },
          ],
        },
      },
      '(t.count > $2::numeric AND t.count < $3::numeric)',
      [1, 9],
    ],
    [
      'filters on two columns',
      { name: { filterType: 'text', type: 'equals', filter: 'x' }, count: { filterType: 'number', type: 'equals', filter: 1 } },
      'lower(t.name) = lower($2) AND t.count = $3::numeric',
      ['x', 1],
    ],
  ])('should compile %s', (_name, filterModel, where, parameters) => {
    expect(filterOf(filterModel)).toEqual({ where, parameters });
  });

  describe('injection attempts', () => {
    it.each([["'; DROP TABLE things; --"], ["x' OR '1'='1"], ['$1) OR (TRUE'], ['"; SELECT pg_sleep(10); --'], ['\\']])(
      'should keep the value %p out of the SQL text',
      (value) => {
        expect(filterOf({ name: { filterType: 'text', type: 'equals', filter: value } })).toEqual({
          where: 'lower(t.name) = lower($2)',
          parameters: [value],
        });
        expect(filterOf({ name: { filterType: 'set', values: [value] } })).toEqual({
          where: 't.name = ANY($2::text[])',
          parameters: [[value]],
        });
      },
    );

    it('should escape LIKE wildcards so they match literally', () => {
      expect(filterOf({ name: { filterType: 'text', type: 'contains', filter: '50%_off\\' } }).parameters).toEqual(['%50\\%\\_off\\\\%']);
    });

    it.each([['name; DROP TABLE things'], ['t.name'], ['name" FROM pg_user --'], ['__proto__'], ['constructor'], ['toString']])(
      'should refuse the column %p in filters and sorts',
      (colId) => {
        expect(errorsOf({ filterModel: { [colId]: { filterType: 'text', type: 'equals', filter: 'x' } } })).toEqual([
          { pointer: `/filterModel/${colId}`, detail: expect.stringContaining('unknown column') },
        ]);
        expect(errorsOf({ sortModel: [{ colId, sort: 'asc' }] })).toEqual([
          { pointer: '/sortModel/0/colId', detail: expect.stringContaining('unknown column') },
        ]);
      },
    );

    it('should refuse an operator or filter type outside the lists', () => {
      expect(errorsOf({ filterModel: { name: { filterType: 'text', type: "equals' OR 1=1", filter: 'x' } } })).toEqual([
        { pointer: '/filterModel/name/type', detail: expect.any(String) },
      ]);
      expect(errorsOf({ filterModel: { name: { filterType: 'sql', type: 'equals', filter: 'x' } } })).toEqual([
        { pointer: '/filterModel/name/filterType', detail: expect.any(String) },
      ]);
      expect(errorsOf({ filterModel: { name: { filterType: 'text', operator: 'OR 1=1', conditions: [] } } })).toEqual([
        { pointer: '/filterModel/name/operator', detail: 'must be AND or OR' },
      ]);
    });
  });

  it.each<[string, Partial<ListingRequestDto>, string]>([
    ['a page over 1,000 rows', { startRow: 0, endRow: 1001 }, '/endRow'],
    ['an empty page', { startRow: 5, endRow: 5 }, '/endRow'],
    ['endRow before startRow', { startRow: 10, endRow: 5 }, '/endRow'],
    [
      'a column sorted twice',
      {
        sortModel: [
          { colId: 'name', sort: 'asc' },
          { colId: 'name', sort: 'desc' },
        ],
      },
      '/sortModel/1/colId',
    ],
    [
      'a text filter on a number column',
      { filterModel: { count: { filterType: 'text', type: 'equals', filter: '1' } } },
      '/filterModel/count/filterType',
    ],
    [
      'a number filter on a text column',
      { filterModel: { name: { filterType: 'number', type: 'equals', filter: 1 } } },
      '/filterModel/name/filterType',
    ],
    [
      'a set filter on a date column',
      { filterModel: { createdAt: { filterType: 'set', values: ['x'] } } },
      '/filterModel/createdAt/filterType',
    ],
    [
      'a text operator on a number',
      { filterModel: { count: { filterType: 'number', type: 'contains', filter: 1 } } },
      '/filterModel/count/type',
    ],
    [
      'inRange on a number (not in the seed)',
      { filterModel: { count: { filterType: 'number', type: 'inRange', filter: 1 } } },
      '/filterModel/count/type',
    ],
    [
      'a number given as text',
      { filterModel: { count: { filterType: 'number', type: 'equals', filter: '1' } } },
      '/filterModel/count/filter',
    ],
    ['a missing text value', { filterModel: { name: { filterType: 'text', type: 'equals' } } }, '/filterModel/name/filter'],
    [
      'a text value too long',
      { filterModel: { name: { filterType: 'text', type: 'equals', filter: 'x'.repeat(501) } } },
      '/filterModel/name/filter',
    ],
    [
      'a date in another form',
      { filterModel: { createdAt: { filterType: 'date', type: 'lessThan', dateFrom: '01/11/2026' } } },
      '/filterModel/createdAt/dateFrom',
    ],
    [
      'a date that does not exist',
      { filterModel: { createdAt: { filterType: 'date', type: 'lessThan', dateFrom: '2026-02-30' } } },
      '/filterModel/createdAt/dateFrom',
    ],
    [
      'inRange without dateTo',
      { filterModel: { createdAt: { filterType: 'date', type: 'inRange', dateFrom: '2026-01-01' } } },
      '/filterModel/createdAt/dateTo',
    ],
    [
      'inRange backwards',
      { filterModel: { createdAt: { filterType: 'date', type: 'inRange', dateFrom: '2026-02-01', dateTo: '2026-01-01' } } },
      '/filterModel/createdAt/dateTo',
    ],
    ['set values that are not strings', { filterModel: { name: { filterType: 'set', values: [1] } } }, '/filterModel/name/values'],
    [
      'an unknown property',
      { filterModel: { name: { filterType: 'text', type: 'equals', filter: 'x', raw: 'SELECT' } } },
      '/filterModel/name/raw',
    ],
    ['a filter that is not an object', { filterModel: { name: 'x' } }, '/filterModel/name'],
    ['no conditions', { filterModel: { name: { filterType: 'text', operator: 'AND', conditions: [] } } }, '/filterModel/name/conditions'],
    [
      'too many conditions',
      { filterModel: { name: { filterType: 'text', operator: 'AND', conditions: Array(11).fill({ filterType: 'text', type: 'blank' }) } } },
      '/filterModel/name/conditions',
    ],
    [
      'nested conditions',
      { filterModel: { name: { operator: 'AND', conditions: [{ operator: 'OR', conditions: [{ filterType: 'text', type: 'blank' }] }] } } },
      '/filterModel/name/conditions/0',
    ],
    [
      'a condition of another filter type',
      { filterModel: { name: { filterType: 'text', operator: 'AND', conditions: [{ filterType: 'set', values: ['a'] }] } } },
      '/filterModel/name/conditions/0/filterType',
    ],
  ])('should answer 400 for %s, pointing at the field', (_name, request, pointer) => {
    expect(errorsOf(request).map((error) => error.pointer)).toEqual([pointer]);
  });

  it('should report every mistake at once', () => {
    const errors = errorsOf({
      startRow: 0,
      endRow: 2000,
      filterModel: { nope: {}, count: { filterType: 'number', type: 'equals', filter: 'x' } },
    });
    expect(errors.map((error) => error.pointer)).toEqual(['/endRow', '/filterModel/nope', '/filterModel/count/filter']);
  });
});
