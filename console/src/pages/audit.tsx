import { useState } from 'preact/hooks';
import { formatTime, useText } from '../i18n';
import { ChoiceFilter, ContainsFilter, ListingFilters } from './listing-filters';
import { ListingTable } from './listing-table';
import { ErrorMessage } from './shared';
import { useListing } from './use-listing';

const PAGE_SIZE = 20;
const ENVIRONMENTS = ['test', 'live'];

/** An entry of POST /api/v1/audit-events (docs/audit.md). */
interface AuditRow {
  id: string;
  occurredAt: string;
  environment?: string;
  actorType: 'member' | 'operator';
  actor?: string;
  action: string;
  targetType: string;
  targetId?: string;
  clientAddress?: string;
  details?: Record<string, unknown>;
}

/** Who changed what, when and from where: the team's audit log, newest first. */
export function AuditPage() {
  const { t, language } = useText();
  const listing = useListing<AuditRow>('/api/v1/audit-events', PAGE_SIZE, [{ colId: 'occurredAt', sort: 'desc' }]);
  const [action, setAction] = useState('');
  const [environment, setEnvironment] = useState('');

  const applyFilters = () =>
    listing.setFilter({
      ...(action.trim() ? { action: { filterType: 'text', type: 'contains', filter: action.trim() } } : {}),
      ...(environment ? { environment: { filterType: 'set', values: [environment] } } : {}),
    });

  return (
    <section>
      <h1>{t('navAudit')}</h1>
      <ListingFilters onApply={applyFilters}>
        <ContainsFilter label={t('action')} value={action} onChange={setAction} />
        <ChoiceFilter label={t('environment')} value={environment} choices={ENVIRONMENTS} onChange={setEnvironment} />
      </ListingFilters>
      <ErrorMessage error={listing.error} />
      <ListingTable
        listing={listing}
        caption={t('navAudit')}
        columns={[
          ['occurredAt', t('at')],
          ['actor', t('actor')],
          ['action', t('action')],
          ['targetId', t('target')],
          ['environment', t('environment')],
          ['clientAddress', t('clientAddress')],
        ]}
        lastHeader={t('facts')}
        empty={t('auditEmpty')}
        row={(row) => (
          <tr key={row.id} data-action={row.action}>
            <td>{formatTime(language, row.occurredAt)}</td>
            <td>{row.actorType === 'operator' ? t('operator') : (row.actor ?? t('none'))}</td>
            <td>
              <code>{row.action}</code>
            </td>
            <td>{row.targetId ? <code title={row.targetId}>{row.targetId.slice(0, 8)}</code> : t('none')}</td>
            <td>{row.environment ?? t('none')}</td>
            <td>{row.clientAddress ?? t('none')}</td>
            <td class="details">{row.details ? describe(row.details) : t('none')}</td>
          </tr>
        )}
      />
    </section>
  );
}

/** A few facts, as `name: value` pairs on one line. */
function describe(details: Record<string, unknown>): string {
  return Object.entries(details)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join('; ');
}
