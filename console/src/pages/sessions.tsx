import { useState } from 'preact/hooks';
import { formatDuration } from '../format';
import { formatTime, useText } from '../i18n';
import { ChoiceFilter, ContainsFilter, ListingFilters } from './listing-filters';
import { ListingTable } from './listing-table';
import { ErrorMessage } from './shared';
import { useListing } from './use-listing';

const PAGE_SIZE = 10;
const STATUSES = ['pending', 'complete', 'failed'];
const ENVIRONMENTS = ['test', 'live'];

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

  const applyFilters = () =>
    listing.setFilter({
      ...(status ? { status: { filterType: 'set', values: [status] } } : {}),
      ...(environment ? { environment: { filterType: 'set', values: [environment] } } : {}),
      ...(provider.trim() ? { provider: { filterType: 'text', type: 'contains', filter: provider.trim() } } : {}),
    });

  return (
    <section>
      <h1>{t('navSessions')}</h1>
      <ListingFilters onApply={applyFilters}>
        <ChoiceFilter label={t('status')} value={status} choices={STATUSES} onChange={setStatus} />
        <ChoiceFilter label={t('environment')} value={environment} choices={ENVIRONMENTS} onChange={setEnvironment} />
        <ContainsFilter label={t('provider')} value={provider} onChange={setProvider} />
      </ListingFilters>
      <ErrorMessage error={listing.error} />
      <ListingTable
        listing={listing}
        caption={t('navSessions')}
        columns={[
          ['sessionId', t('session')],
          ['provider', t('provider')],
          ['environment', t('environment')],
          ['status', t('status')],
          ['hintCode', t('hintCode')],
          ['createdAt', t('created')],
          ['completedAt', t('completed')],
          ['durationMs', t('duration')],
        ]}
        empty={t('sessionsEmpty')}
        row={(row) => (
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
            <td>{formatDuration(language, row.durationMs)}</td>
          </tr>
        )}
      />
    </section>
  );
}
