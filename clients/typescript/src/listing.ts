import type { Environment } from './environment.js';
import type { Transport } from './transport.js';
import type { ListOptions } from './types.js';

interface Page<Row> {
  rows: Row[];
  lastrow: number;
}

/**
 * Every row of a tabular listing (docs/listings.md), page by page: `lastrow` is -1 while more rows exist.
 * Rows of the client's environment only, unless the filter names `environment` itself.
 */
export async function* listAll<Row>(
  transport: Transport,
  path: string,
  environment: Environment,
  options: ListOptions = {},
): AsyncGenerator<Row> {
  const pageSize = options.pageSize ?? 100;
  const filterModel = { environment: { filterType: 'set', values: [environment] }, ...options.filterModel };
  for (let startRow = 0; ; startRow += pageSize) {
    const page = await transport.json<Page<Row>>({
      method: 'POST',
      path,
      auth: 'member',
      body: { startRow, endRow: startRow + pageSize, filterModel, sortModel: options.sortModel },
      signal: options.signal,
    });
    yield* page.rows;
    if (page.lastrow !== -1 || page.rows.length < pageSize) return;
  }
}
