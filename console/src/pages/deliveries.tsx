import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from '../api';
import { formatTime, useText } from '../i18n';
import { ErrorMessage, Pager } from './shared';
import { SortableHeader } from './sortable-header';
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

  const applyFilters = (event: Event) => {
    event.preventDefault();
    listing.setFilter({
      ...(status ? { status: { filterType: 'set', values: [status] } } : {}),
      ...(eventType ? { eventType: { filterType: 'set', values: [eventType] } } : {}),
      ...(url.trim() ? { url: { filterType: 'text', type: 'contains', filter: url.trim() } } : {}),
    });
  };

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

  const header = (colId: string, label: string) => (
    <SortableHeader colId={colId} label={label} sort={listing.sort} onSort={listing.sortBy} />
  );
  const rows = listing.page?.rows ?? [];

  return (
    <section>
      <h1>{t('navDeliveries')}</h1>
      <form class="filters" onSubmit={applyFilters} aria-label={t('filters')}>
        <label>
          {t('status')}
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            <option value="">{t('all')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(s)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('eventType')}
          <select value={eventType} onChange={(e) => setEventType(e.currentTarget.value)}>
            <option value="">{t('all')}</option>
            {[...EVENT_TYPES, 'webhook.test'].map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('urlContains')}
          <input value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        </label>
        <button type="submit">{t('apply')}</button>
      </form>
      <ErrorMessage error={listing.error ?? error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">{t('navDeliveries')}</caption>
          <thead>
            <tr>
              {header('createdAt', t('created'))}
              {header('eventType', t('eventType'))}
              {header('url', t('url'))}
              {header('status', t('status'))}
              {header('attemptCount', t('attempts'))}
              {header('lastStatusCode', t('lastStatus'))}
              <th scope="col">{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {listing.page && rows.length === 0 && (
              <tr>
                <td colSpan={7}>{t('deliveriesEmpty')}</td>
              </tr>
            )}
            {rows.map((row) => [
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
                            <td>{attempt.latencyMs} ms</td>
                            <td>{attempt.error ?? t('none')}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </td>
                </tr>
              ),
            ])}
          </tbody>
        </table>
      </div>
      {listing.page && (
        <Pager start={listing.start} count={rows.length} lastrow={listing.page.lastrow} pageSize={PAGE_SIZE} onPage={listing.setStart} />
      )}
    </section>
  );
}
