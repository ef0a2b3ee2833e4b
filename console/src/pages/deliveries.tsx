import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from '../api';
import { formatDuration } from '../format';
import { formatTime, useText } from '../i18n';
import { ChoiceFilter, ContainsFilter, ListingFilters } from './listing-filters';
import { ListingTable } from './listing-table';
import { ErrorMessage } from './shared';
import { useListing } from './use-listing';
import { EVENT_TYPES } from './webhooks';

const PAGE_SIZE = 10;
const STATUSES = ['pending', 'delivered', 'failed'] as const;

interface Attempt {
  number: number;
  attemptedAt: string;
  trigger: string;
  outcome: string;
  statusCode?: number;
  latencyMs: number;
  error?: string;
}

interface DeliveryRow {
  id: string;
  url: string;
  eventType: string;
  status: (typeof STATUSES)[number];
  attemptCount: number;
  lastStatusCode?: number;
  createdAt: string;
  attempts: Attempt[];
}

/** The delivery log (docs/webhooks.md): filters, each message's attempts with status and latency, redelivery. */
export function DeliveriesPage() {
  const { t, language } = useText();
  const listing = useListing<DeliveryRow>('/api/v1/webhook-deliveries', PAGE_SIZE, [{ colId: 'createdAt', sort: 'desc' }]);
  const [status, setStatus] = useState('');
  const [eventType, setEventType] = useState('');
  const [url, setUrl] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  // Pending messages change as the dispatcher works: look again every few seconds while any is shown.
  const anyPending = listing.page?.rows.some((row) => row.status === 'pending') ?? false;
  useEffect(() => {
    if (!anyPending) return;
    const timer = setTimeout(listing.reload, 2000);
    return () => clearTimeout(timer);
  }, [listing.page]);

  const applyFilters = () =>
    listing.setFilter({
      ...(status ? { status: { filterType: 'set', values: [status] } } : {}),
      ...(eventType ? { eventType: { filterType: 'set', values: [eventType] } } : {}),
      ...(url.trim() ? { url: { filterType: 'text', type: 'contains', filter: url.trim() } } : {}),
    });

  const redeliver = async (id: string) => {
    setError(null);
    setNotice(null);
    try {
      await call('POST', `/api/v1/webhook-deliveries/${id}/redeliver`);
      setNotice(t('redelivered'));
    } catch (e) {
      setError(e as ApiError);
    }
    listing.reload();
  };

  return (
    <section>
      <h1>{t('navDeliveries')}</h1>
      <ListingFilters onApply={applyFilters}>
        <ChoiceFilter label={t('status')} value={status} choices={STATUSES} text={t} onChange={setStatus} />
        <ChoiceFilter label={t('eventType')} value={eventType} choices={[...EVENT_TYPES, 'webhook.test']} onChange={setEventType} />
        <ContainsFilter label={t('urlContains')} value={url} onChange={setUrl} />
      </ListingFilters>
      <ErrorMessage error={listing.error ?? error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <ListingTable
        listing={listing}
        caption={t('navDeliveries')}
        columns={[
          ['createdAt', t('created')],
          ['eventType', t('eventType')],
          ['url', t('url')],
          ['status', t('status')],
          ['attemptCount', t('attempts')],
          ['lastStatusCode', t('lastStatus')],
        ]}
        lastHeader={t('actions')}
        empty={t('deliveriesEmpty')}
        row={(row) => [
          <tr key={row.id} data-delivery-id={row.id} data-status={row.status}>
            <td>{formatTime(language, row.createdAt)}</td>
            <td>{row.eventType}</td>
            <td>
              <code>{row.url}</code>
            </td>
            <td>{t(row.status)}</td>
            <td>
              <button
                type="button"
                class="link"
                aria-expanded={open === row.id}
                aria-controls={`attempts-${row.id}`}
                onClick={() => setOpen(open === row.id ? null : row.id)}
              >
                {row.attemptCount}
              </button>
            </td>
            <td>{row.lastStatusCode ?? t('none')}</td>
            <td>
              <button type="button" onClick={() => void redeliver(row.id)}>
                {t('redeliver')}
              </button>
            </td>
          </tr>,
          open === row.id && (
            <tr key={`${row.id}-attempts`} id={`attempts-${row.id}`}>
              <td colSpan={7}>
                <table class="attempts">
                  <caption>{t('details', { id: row.id.slice(0, 8) })}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('attempt')}</th>
                      <th scope="col">{t('at')}</th>
                      <th scope="col">{t('trigger')}</th>
                      <th scope="col">{t('outcome')}</th>
                      <th scope="col">{t('statusCode')}</th>
                      <th scope="col">{t('latency')}</th>
                      <th scope="col">{t('error')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {row.attempts.map((attempt) => (
                      <tr key={attempt.number}>
                        <td>{attempt.number}</td>
                        <td>{formatTime(language, attempt.attemptedAt)}</td>
                        <td>{attempt.trigger}</td>
                        <td>{attempt.outcome}</td>
                        <td>{attempt.statusCode ?? t('none')}</td>
                        <td>{formatDuration(language, attempt.latencyMs)}</td>
                        <td>{attempt.error ?? t('none')}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </td>
            </tr>
          ),
        ]}
      />
    </section>
  );
}
