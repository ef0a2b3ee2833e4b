import type { SortModel } from '../api';
import { useText } from '../i18n';

/** A column header that sorts the listing: a button, with aria-sort on the header cell. */
export function SortableHeader({
  colId,
  label,
  sort,
  onSort,
}: {
  colId: string;
  label: string;
  sort: SortModel[];
  onSort: (colId: string) => void;
}) {
  const { t } = useText();
  const current = sort[0]?.colId === colId ? sort[0].sort : null;
  return (
    <th scope="col" aria-sort={current === 'asc' ? 'ascending' : current === 'desc' ? 'descending' : 'none'}>
      <button type="button" class="sort" onClick={() => onSort(colId)} title={t('sortBy', { column: label })}>
        {label}
        <span aria-hidden="true">{current === 'asc' ? ' ▲' : current === 'desc' ? ' ▼' : ''}</span>
      </button>
    </th>
  );
}
