import { useEffect, useState } from 'preact/hooks';
import { call } from '../api';
import { formatDuration } from '../format';
import { formatTime, useText } from '../i18n';
import { ChoiceFilter, ListingFilters } from './listing-filters';
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
  const providers = useTeamProviders();

  const applyFilters = () =>
    listing.setFilter({
      ...(status ? { status: { filterType: 'set', values: [status] } } : {}),
      ...(environment ? { environment: { filterType: 'set', values: [environment] } } : {}),
      ...(provider ? { provider: { filterType: 'set', values: [provider] } } : {}),
    });

  return (
    <section>
      <h1>{t('navSessions')}</h1>
      <ListingFilters onApply={applyFilters}>
        <ChoiceFilter label={t('status')} value={status} choices={STATUSES} onChange={setStatus} />
        <ChoiceFilter label={t('environment')} value={environment} choices={ENVIRONMENTS} onChange={setEnvironment} />
        <ChoiceFilter label={t('provider')} value={provider} choices={providers} onChange={setProvider} />
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
              <a href={`#/sessions/${row.sessionId}`} aria-label={t('openTimeline', { id: row.sessionId.slice(0, 8) })}>
                <code title={row.sessionId}>{row.sessionId.slice(0, 8)}</code>
              </a>
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

/**
 * The providers the team's sessions used in the last 30 days, in either environment: the overview's
 * figures (GET /api/v1/stats, cached by the service), so the filter offers what there is to find.
 */
function useTeamProviders(): string[] {
  const [providers, setProviders] = useState<string[]>([]);
  useEffect(() => {
    const of = (environment: string) =>
      call<{ sessions: { byProvider: { provider: string }[] } }>('GET', `/api/v1/stats?environment=${environment}&range=30d`).then(
        (stats) => stats.sessions.byProvider.map((row) => row.provider),
        () => [] as string[],
      );
    void Promise.all([of('test'), of('live')]).then((lists) => setProviders([...new Set(lists.flat())].sort()));
  }, []);
  return providers;
}
