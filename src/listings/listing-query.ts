import { ValidationProblemException, type FieldError } from '../common/problem-details/validation-problem.exception.js';
import { compileFilterModel } from './filter-compiler.js';
import type { ListingDefinition } from './listing-definition.js';
import { MAX_PAGE_SIZE, type ListingRequestDto } from './listing-request.dto.js';
import { SqlParameters } from './sql-parameters.js';

export interface CompiledListing {
  /** One row more than the page, so the answer knows whether another page exists. */
  page: { sql: string; parameters: unknown[] };
  /** The total under the same filters, for a request that starts past the last row. */
  count: { sql: string; parameters: unknown[] };
  pageSize: number;
}

/** Rows of this listing the caller may see at all, e.g. `(p) => \`s.team_id = ${p.add(teamId)}\``. */
export type ListingScope = (parameters: SqlParameters) => string;

/** The request as two parameterised statements, or a 400 listing every mistake in it. */
export function compileListing(definition: ListingDefinition, request: ListingRequestDto, scope: ListingScope): CompiledListing {
  const errors: FieldError[] = [];
  const pageSize = request.endRow - request.startRow;
  if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    errors.push({ pointer: '/endRow', detail: `endRow must be 1 to ${MAX_PAGE_SIZE} more than startRow` });
  }
  const parameters = new SqlParameters();
  const where = `(${scope(parameters)}) AND (${compileFilterModel(definition.columns, request.filterModel, parameters, errors)})`;
  const orderBy = compileSort(definition, request, errors);
  if (errors.length > 0) throw new ValidationProblemException(errors);

  const select = Object.entries(definition.columns)
    .map(([colId, column]) => `${column.sql} AS "${colId}"`)
    .join(', ');
  const count = { sql: `SELECT count(*)::int AS total FROM ${definition.from} WHERE ${where}`, parameters: [...parameters.values] };
  const limit = parameters.add(pageSize + 1);
  const offset = parameters.add(request.startRow);
  return {
    page: {
      sql: `SELECT ${select} FROM ${definition.from} WHERE ${where} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
      parameters: parameters.values,
    },
    count,
    pageSize,
  };
}

function compileSort(definition: ListingDefinition, request: ListingRequestDto, errors: FieldError[]): string {
  const sortModel = request.sortModel?.length ? request.sortModel : definition.defaultSort;
  const seen = new Set<string>();
  const terms = sortModel.flatMap((item, i) => {
    const column = Object.hasOwn(definition.columns, item.colId) ? definition.columns[item.colId] : undefined;
    if (!column || seen.has(item.colId)) {
      errors.push({
        pointer: `/sortModel/${i}/colId`,
        detail: column
          ? 'sorts the same column twice'
          : `unknown column; sortable columns are ${Object.keys(definition.columns).join(', ')}`,
      });
      return [];
    }
    seen.add(item.colId);
    return [`${column.sql} ${item.sort === 'desc' ? 'DESC' : 'ASC'}`];
  });
  return [...terms, definition.tiebreaker].join(', ');
}
