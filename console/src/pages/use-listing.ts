import { useEffect, useState } from 'preact/hooks';
import { ApiError, listing, type SortModel } from '../api';

/** A page of a server-side listing (docs/listings.md): paging, sorting and filtering all happen in the service. */
export function useListing<T>(path: string, pageSize: number, initialSort: SortModel[]) {
  const [start, setStart] = useState(0);
  const [sort, setSort] = useState<SortModel[]>(initialSort);
  const [filter, setFilter] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState<{ rows: T[]; lastrow: number } | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    setError(null);
    listing<T>(path, start, start + pageSize, sort, filter).then(
      (answer) => current && setPage(answer),
      (e: ApiError) => current && setError(e),
    );
    return () => {
      current = false;
    };
  }, [path, start, sort, filter, version]);

  return {
    start,
    pageSize,
    page,
    error,
    sort,
    setStart,
    reload: () => setVersion((v) => v + 1),
    setFilter: (next: Record<string, unknown>) => (setStart(0), setFilter(next)),
    /** Sorts by a column; again on the same column flips the order. */
    sortBy: (colId: string) => {
      setStart(0);
      setSort(sort[0]?.colId === colId && sort[0].sort === 'asc' ? [{ colId, sort: 'desc' }] : [{ colId, sort: 'asc' }]);
    },
  };
}

export type Listing<T> = ReturnType<typeof useListing<T>>;
