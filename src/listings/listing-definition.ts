/** How a column may be filtered: text and set filters on text, number filters on numbers, date filters on times. */
export type ColumnType = 'text' | 'number' | 'date';

export interface ListingColumn {
  /** A trusted SQL expression from the code, never from a request. Text columns must yield text. */
  sql: string;
  type: ColumnType;
}

export interface SortItem {
  colId: string;
  sort: 'asc' | 'desc';
}

/**
 * One tabular listing (docs/listings.md): the whitelist of columns a request may name, with their SQL.
 * Requests choose among these; they never contribute SQL text.
 */
export interface ListingDefinition {
  /** FROM clause, e.g. `sessions s`. */
  from: string;
  columns: Record<string, ListingColumn>;
  /** A unique expression appended to every sort, so consecutive pages neither overlap nor skip rows. */
  tiebreaker: string;
  defaultSort: SortItem[];
}

export const defineListing = (definition: ListingDefinition): ListingDefinition => {
  for (const colId of Object.keys(definition.columns)) {
    // Column ids become quoted aliases in the SELECT list; keep them plain identifiers.
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(colId)) throw new Error(`Listing column id ${colId} must be alphanumeric`);
  }
  return definition;
};
