import type { ComponentChildren } from 'preact';
import { useText } from '../i18n';
import { SortableHeader } from './sortable-header';
import type { Listing } from './use-listing';

/**
 * A page of a server-side listing as a table (docs/listings.md): headers that sort it, a line when no
 * row matches, and the pager under it.
 */
export function ListingTable<T>({
  listing,
  caption,
  columns,
  lastHeader,
  empty,
  row,
}: {
  listing: Listing<T>;
  caption: string;
  /** The sortable columns: the listing's colId and the header's text. */
  columns: [colId: string, label: string][];
  /** A last column that does not sort, e.g. the row's actions. */
  lastHeader?: string;
  /** Shown when no row matches. */
  empty: string;
  row: (row: T) => ComponentChildren;
}) {
  const { page } = listing;
  const rows = page?.rows ?? [];
  return (
    <>
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map(([colId, label]) => (
                <SortableHeader key={colId} colId={colId} label={label} sort={listing.sort} onSort={listing.sortBy} />
              ))}
              {lastHeader && <th scope="col">{lastHeader}</th>}
            </tr>
          </thead>
          <tbody>
            {page && rows.length === 0 && (
              <tr>
                <td colSpan={columns.length + (lastHeader ? 1 : 0)}>{empty}</td>
              </tr>
            )}
            {rows.map(row)}
          </tbody>
        </table>
      </div>
      {page && (
        <Pager start={listing.start} count={rows.length} lastrow={page.lastrow} pageSize={listing.pageSize} onPage={listing.setStart} />
      )}
    </>
  );
}

/** Paging of a tabular listing: previous/next and where we are. */
function Pager({
  start,
  count,
  lastrow,
  pageSize,
  onPage,
}: {
  start: number;
  count: number;
  lastrow: number;
  pageSize: number;
  onPage: (start: number) => void;
}) {
  const { t } = useText();
  const from = count === 0 ? 0 : start + 1;
  const to = start + count;
  const more = lastrow === -1 || to < lastrow;
  return (
    <div class="pager">
      <span role="status">{lastrow === -1 ? t('rowsFrom', { from, to }) : t('rowsOf', { from, to, total: lastrow })}</span>
      <button type="button" disabled={start === 0} onClick={() => onPage(Math.max(0, start - pageSize))}>
        {t('previous')}
      </button>
      <button type="button" disabled={!more} onClick={() => onPage(start + pageSize)}>
        {t('next')}
      </button>
    </div>
  );
}
