import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { execute } from '../database/sql-execution.js';
import type { ListingDefinition } from './listing-definition.js';
import { compileListing, type ListingScope } from './listing-query.js';
import type { ListingRequestDto } from './listing-request.dto.js';

export type ListingRow = Record<string, string | number | boolean>;

export interface ListingPage {
  success: true;
  rows: ListingRow[];
  /** -1 while more rows exist; otherwise the total row count (docs/listings.md). */
  lastrow: number;
}

/** Runs a tabular listing (docs/listings.md) for any definition: one query per page, a count only past the end. */
@Injectable()
export class ListingStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async page(definition: ListingDefinition, request: ListingRequestDto, scope: ListingScope): Promise<ListingPage> {
    const { page, count, pageSize } = compileListing(definition, request, scope);
    // Compiled per request from the definition's fixed columns and operators (listing-query.ts), so
    // not a statement declared ahead; the listings' e2e tests run every definition.
    const { rows: records } = await execute<Record<string, unknown>>(this.dataSource, page.sql, page.parameters);
    if (records.length > pageSize) return { success: true, rows: records.slice(0, pageSize).map(toRow), lastrow: -1 };
    let lastrow = request.startRow + records.length;
    if (records.length === 0 && request.startRow > 0) {
      const { rows } = await execute<{ total: number }>(this.dataSource, count.sql, count.parameters);
      lastrow = rows[0].total;
    }
    return { success: true, rows: records.map(toRow), lastrow };
  }
}

/** Times as ISO 8601 UTC; null values left out, as the v2 API does. */
function toRow(record: Record<string, unknown>): ListingRow {
  const row: ListingRow = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === null || value === undefined) continue;
    row[key] = value instanceof Date ? value.toISOString() : (value as string | number | boolean);
  }
  return row;
}
