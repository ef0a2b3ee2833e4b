import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, call } from '../api';
import { formatDuration, formatNumber, formatPercent } from '../format';
import { useText, type TextKey } from '../i18n';
import { ErrorMessage } from './shared';
import { TimeChart, type ChartSeries } from './time-chart';

const OUTCOMES = ['complete', 'failed', 'cancelled', 'expired', 'pending'] as const;
type Outcome = (typeof OUTCOMES)[number];
type Counts = Record<Outcome, number>;

const OUTCOME_TEXT: Record<Outcome, TextKey> = {
  complete: 'outcomeComplete',
  failed: 'outcomeFailed',
  cancelled: 'outcomeCancelled',
  expired: 'outcomeExpired',
  pending: 'outcomePending',
};
// Distinguishable for common colour blindness and at least 3:1 against white.
const OUTCOME_COLOR: Record<Outcome, string> = {
  complete: '#1a7f37',
  failed: '#cf222e',
  cancelled: '#9a6700',
  expired: '#57606a',
  pending: '#0969da',
};

/** GET /api/v1/stats (docs/console.md, "Overview"). */
export interface Stats {
  bucket: 'hour' | 'day';
  sessions: {
    total: number;
    byOutcome: Counts;
    shareCompleted: number | null;
    completionMs: { median: number | null; p95: number | null };
    series: (Counts & { start: string })[];
    byProvider: (Counts & { provider: string; total: number })[];
    topFailures: {
      hintCode: string;
      provider: string;
      count: number;
      userMessage: { code: string; sv: string; en: string } | null;
    }[];
  };
  webhooks: {
    total: number;
    byOutcome: { delivered: number; failed: number; pending: number };
    series: { start: string; delivered: number; failed: number; pending: number }[];
    latencyMs: { median: number | null; p95: number | null };
  };
  apiKeys: {
    id: string;
    name: string | null;
    displayPrefix: string;
    lastFour: string;
    monthlyLimit: number | null;
    usageThisMonth: { requests: number };
  }[];
}

const RANGES = ['24h', '7d', '30d'] as const;

/** The console's first page: how the team's logins and webhooks went, for one environment and period. */
export function OverviewPage() {
  const { t, language } = useText();
  const [environment, setEnvironment] = useState<'test' | 'live'>('test');
  const [range, setRange] = useState<(typeof RANGES)[number]>('24h');
  const [stats, setStats] = useState<Stats | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  useEffect(() => {
    let current = true;
    setError(null);
    call<Stats>('GET', `/api/v1/stats?environment=${environment}&range=${range}`).then(
      (answer) => current && setStats(answer),
      (e: ApiError) => current && setError(e),
    );
    return () => {
      current = false;
    };
  }, [environment, range]);

  const number = (value: number) => formatNumber(language, value);
  const sessionSeries = useMemo<ChartSeries[]>(
    () =>
      OUTCOMES.map((outcome) => ({
        label: t(OUTCOME_TEXT[outcome]),
        color: OUTCOME_COLOR[outcome],
        values: stats?.sessions.series.map((bucket) => bucket[outcome]) ?? [],
      })),
    [stats, t],
  );
  const webhookSeries = useMemo<ChartSeries[]>(
    () =>
      (['delivered', 'failed', 'pending'] as const).map((status) => ({
        label: t(status),
        color: status === 'delivered' ? OUTCOME_COLOR.complete : status === 'failed' ? OUTCOME_COLOR.failed : OUTCOME_COLOR.pending,
        values: stats?.webhooks.series.map((bucket) => bucket[status]) ?? [],
      })),
    [stats, t],
  );
  const bucket = stats ? t(stats.bucket) : '';

  return (
    <section class="overview">
      <h1>{t('navOverview')}</h1>
      <form class="filters" aria-label={t('filters')} onSubmit={(e) => e.preventDefault()}>
        <label>
          {t('environment')}
          <select value={environment} onChange={(e) => setEnvironment(e.currentTarget.value as 'test' | 'live')}>
            <option value="test">test</option>
            <option value="live">live</option>
          </select>
        </label>
        <label>
          {t('range')}
          <select value={range} onChange={(e) => setRange(e.currentTarget.value as (typeof RANGES)[number])}>
            {RANGES.map((choice) => (
              <option key={choice} value={choice}>
                {t(`range${choice}` as TextKey)}
              </option>
            ))}
          </select>
        </label>
      </form>
      <ErrorMessage error={error} />
      {!stats ? (
        !error && <p>{t('loading')}</p>
      ) : (
        <>
          <dl class="tiles" data-testid="figures">
            <Tile label={t('sessionsStarted')} value={number(stats.sessions.total)} />
            <Tile label={t('shareCompleted')} value={formatPercent(language, stats.sessions.shareCompleted)} />
            <Tile label={t('medianTime')} value={formatDuration(language, stats.sessions.completionMs.median)} />
            <Tile label={t('p95Time')} value={formatDuration(language, stats.sessions.completionMs.p95)} />
            <Tile label={t('webhooksDelivered')} value={number(stats.webhooks.byOutcome.delivered)} />
            <Tile label={t('webhooksFailed')} value={number(stats.webhooks.byOutcome.failed)} />
            <Tile label={t('p95Latency')} value={formatDuration(language, stats.webhooks.latencyMs.p95)} />
          </dl>
          <TimeChart
            id="sessions-chart"
            caption={t('sessionsChart', { bucket })}
            starts={stats.sessions.series.map((b) => b.start)}
            bucket={stats.bucket}
            series={sessionSeries}
          />
          <ProviderTable stats={stats} />
          <FailuresTable stats={stats} />
          <TimeChart
            id="webhooks-chart"
            caption={t('webhooksChart', { bucket })}
            starts={stats.webhooks.series.map((b) => b.start)}
            bucket={stats.bucket}
            series={webhookSeries}
          />
          <KeyUsageTable stats={stats} />
        </>
      )}
    </section>
  );
}

function Tile({ label, value }: { label: string; value: string }) {
  return (
    <div class="tile">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

// A table wider than a phone scrolls in its box, which the keyboard must reach too (tabIndex).
function ProviderTable({ stats }: { stats: Stats }) {
  const { t, language } = useText();
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={t('byProvider')}>
      <table data-table="providers">
        <caption>{t('byProvider')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('provider')}</th>
            <th scope="col">{t('total')}</th>
            {OUTCOMES.map((outcome) => (
              <th key={outcome} scope="col">
                {t(OUTCOME_TEXT[outcome])}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {stats.sessions.byProvider.length === 0 && (
            <tr>
              <td colSpan={OUTCOMES.length + 2}>{t('noSessions')}</td>
            </tr>
          )}
          {stats.sessions.byProvider.map((row) => (
            <tr key={row.provider}>
              <th scope="row">{row.provider}</th>
              <td>{formatNumber(language, row.total)}</td>
              {OUTCOMES.map((outcome) => (
                <td key={outcome}>{formatNumber(language, row[outcome])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function FailuresTable({ stats }: { stats: Stats }) {
  const { t, language } = useText();
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={t('topFailures')}>
      <table data-table="failures">
        <caption>{t('topFailures')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('hintCode')}</th>
            <th scope="col">{t('provider')}</th>
            <th scope="col">{t('userMessage')}</th>
            <th scope="col">{t('count')}</th>
          </tr>
        </thead>
        <tbody>
          {stats.sessions.topFailures.length === 0 && (
            <tr>
              <td colSpan={4}>{t('noFailures')}</td>
            </tr>
          )}
          {stats.sessions.topFailures.map((row) => (
            <tr key={`${row.provider}-${row.hintCode}`}>
              <th scope="row">{row.hintCode}</th>
              <td>{row.provider}</td>
              <td>
                {row.userMessage ? (
                  <>
                    {row.userMessage[language]} <code>{row.userMessage.code}</code>
                  </>
                ) : (
                  t('none')
                )}
              </td>
              <td>{formatNumber(language, row.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function KeyUsageTable({ stats }: { stats: Stats }) {
  const { t, language } = useText();
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={t('keyUsage')}>
      <table data-table="key-usage">
        <caption>{t('keyUsage')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('name')}</th>
            <th scope="col">{t('key')}</th>
            <th scope="col">{t('requests')}</th>
            <th scope="col">{t('monthlyLimit')}</th>
            <th scope="col">{t('share')}</th>
          </tr>
        </thead>
        <tbody>
          {stats.apiKeys.length === 0 && (
            <tr>
              <td colSpan={5}>{t('noKeys')}</td>
            </tr>
          )}
          {stats.apiKeys.map((key) => (
            <tr key={key.id}>
              <th scope="row">{key.name ?? t('unnamed')}</th>
              <td>
                <code>
                  {key.displayPrefix}…{key.lastFour}
                </code>
              </td>
              <td>{formatNumber(language, key.usageThisMonth.requests)}</td>
              <td>{key.monthlyLimit === null ? t('unlimited') : formatNumber(language, key.monthlyLimit)}</td>
              <td>{key.monthlyLimit ? formatPercent(language, key.usageThisMonth.requests / key.monthlyLimit) : t('none')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
