import { useState } from 'preact/hooks';
import { formatTime, useText } from '../i18n';
import { ErrorMessage, Pager } from './shared';
import { SortableHeader } from './sortable-header';
import { useListing } from './use-listing';

const PAGE_SIZE = 10;
const STATUSES = ['pending', 'complete', 'failed'];

/** A session as the listing shows it: status and times, never personal data. */
interface SessionRow {
  sessionId: string;
  provider: string;
  environment: string;
  status: string;
  hintCode?: string;
  createdAt: string;
  completedAt?: string;
  durationMs?: number;
}

export function SessionsPage() {
  const { t, language } = useText();
  const listing = useListing<SessionRow>('/api/v1/sessions', PAGE_SIZE, [{ colId: 'createdAt', sort: 'desc' }]);
  const [status, setStatus] = useState('');
  const [environment, setEnvironment] = useState('');
  const [provider, setProvider] = useState('');

  const applyFilters = (event: Event) => {
    event.preventDefault();
    listing.setFilter({
      ...(status ? { status: { filterType: 'set', values: [status] } } : {}),
      ...(environment ? { environment: { filterType: 'set', values: [environment] } } : {}),
      ...(provider.trim() ? { provider: { filterType: 'text', type: 'contains', filter: provider.trim() } } : {}),
    });
  };

  const header = (colId: string, label: string) => (
    <SortableHeader colId={colId} label={label} sort={listing.sort} onSort={listing.sortBy} />
  );
  const rows = listing.page?.rows ?? [];

  return (
    <section>
      <h1>{t('navSessions')}</h1>
      <form class="filters" onSubmit={applyFilters} aria-label={t('filters')}>
        <label>
          {t('status')}
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            <option value="">{t('all')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('environment')}
          <select value={environment} onChange={(e) => setEnvironment(e.currentTarget.value)}>
            <option value="">{t('all')}</option>
            <option value="test">test</option>
            <option value="live">live</option>
          </select>
        </label>
        <label>
          {t('provider')}
          <input value={provider} onInput={(e) => setProvider(e.currentTarget.value)} />
        </label>
        <button type="submit">{t('apply')}</button>
      </form>
      <ErrorMessage error={listing.error} />
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">{t('navSessions')}</caption>
          <thead>
            <tr>
              {header('sessionId', t('session'))}
              {header('provider', t('provider'))}
              {header('environment', t('environment'))}
              {header('status', t('status'))}
              {header('hintCode', t('hintCode'))}
              {header('createdAt', t('created'))}
              {header('completedAt', t('completed'))}
              {header('durationMs', t('duration'))}
            </tr>
          </thead>
          <tbody>
            {listing.page && rows.length === 0 && (
              <tr>
                <td colSpan={8}>{t('sessionsEmpty')}</td>
              </tr>
            )}
            {rows.map((row) => (
              <tr key={row.sessionId}>
                <td>
                  <code title={row.sessionId}>{row.sessionId.slice(0, 8)}</code>
                </td>
                <td>{row.provider}</td>
                <td>{row.environment}</td>
                <td>{row.status}</td>
                <td>{row.hintCode ?? t('none')}</td>
                <td>{formatTime(language, row.createdAt)}</td>
                <td>{formatTime(language, row.completedAt)}</td>
                <td>{row.durationMs === undefined ? t('none') : `${(row.durationMs / 1000).toFixed(1)} s`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {listing.page && (
        <Pager start={listing.start} count={rows.length} lastrow={listing.page.lastrow} pageSize={PAGE_SIZE} onPage={listing.setStart} />
      )}
    </section>
  );
}
