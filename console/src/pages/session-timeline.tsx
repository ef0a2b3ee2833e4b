import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from '../api';
import { formatDuration } from '../format';
import { formatTime, useText, type Translate } from '../i18n';
import { ErrorMessage } from './shared';

/** GET /api/v1/sessions/{id}/timeline (docs/console.md, "A session's timeline"). */
interface Timeline {
  session: {
    sessionId: string;
    provider: string;
    environment: string;
    operation: string;
    status: string;
    createdAt: string;
    completedAt: string | null;
  };
  events: { at: string; status: string; hintCode: string | null }[];
  webhooks: {
    id: string;
    eventType: string;
    status: string;
    url: string;
    createdAt: string;
    attempts: { number: number; attemptedAt: string; outcome: string; statusCode: number | null; latencyMs: number }[];
  }[];
  evidence: { state: 'checked' | 'none' | 'purged'; verification?: { status: string } };
  oidcClientId: string | null;
}

/** Saves the session's evidence bundle as a file (docs/transparency.md); it is never shown on the page. */
async function downloadBundle(sessionId: string): Promise<void> {
  const bundle = await call<unknown>('GET', `/api/v1/sessions/${encodeURIComponent(sessionId)}/bundle`);
  const url = URL.createObjectURL(new Blob([JSON.stringify(bundle, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `eid-gateway-bundle-${sessionId}.json`;
  link.click();
  URL.revokeObjectURL(url);
}

/** One session's story: its changes, its webhook messages and their attempts, its evidence check. */
export function SessionTimelinePage({ sessionId }: { sessionId: string }) {
  const { t, language } = useText();
  const [timeline, setTimeline] = useState<Timeline | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  useEffect(() => {
    call<Timeline>('GET', `/api/v1/sessions/${encodeURIComponent(sessionId)}/timeline`).then(setTimeline, setError);
  }, [sessionId]);

  return (
    <section>
      <p>
        <a href="#/sessions">{t('backToSessions')}</a>
      </p>
      <h1>{t('timeline', { id: sessionId.slice(0, 8) })}</h1>
      <ErrorMessage error={error} />
      {timeline && (
        <>
          <dl class="facts">
            <dt>{t('provider')}</dt>
            <dd>{timeline.session.provider}</dd>
            <dt>{t('environment')}</dt>
            <dd>{timeline.session.environment}</dd>
            <dt>{t('status')}</dt>
            <dd>{sessionStatusText(t, timeline.session.status)}</dd>
            <dt>{t('evidenceStatus')}</dt>
            <dd data-fact="evidence">{timeline.evidence.verification?.status ?? timeline.evidence.state}</dd>
            <dt>{t('oidcClient')}</dt>
            <dd>{timeline.oidcClientId ?? t('none')}</dd>
          </dl>
          {timeline.session.status !== 'pending' && timeline.evidence.state !== 'purged' && (
            <p>
              <button type="button" data-action="bundle" onClick={() => void downloadBundle(sessionId).catch(setError)}>
                {t('downloadBundle')}
              </button>{' '}
              <small>{t('bundleHint')}</small>
            </p>
          )}
          <h2>{t('hintChanges')}</h2>
          <ol class="timeline" data-list="events">
            {timeline.events.map((event, i) => (
              <li key={i}>
                <time dateTime={event.at}>{formatTime(language, event.at)}</time> <strong>{sessionStatusText(t, event.status)}</strong>
                {event.hintCode ? <code> {event.hintCode}</code> : null}
              </li>
            ))}
          </ol>
          <h2>{t('webhookMessages')}</h2>
          {timeline.webhooks.length === 0 && <p>{t('noneYet')}</p>}
          <ul class="timeline" data-list="webhooks">
            {timeline.webhooks.map((webhook) => (
              <li key={webhook.id}>
                <code>{webhook.eventType}</code> → {webhook.url}: <strong>{t(webhook.status as 'pending' | 'delivered' | 'failed')}</strong>
                <ol>
                  {webhook.attempts.map((attempt) => (
                    <li key={attempt.number}>
                      <time dateTime={attempt.attemptedAt}>{formatTime(language, attempt.attemptedAt)}</time> {attempt.outcome}{' '}
                      {attempt.statusCode ?? ''} ({formatDuration(language, attempt.latencyMs)})
                    </li>
                  ))}
                </ol>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

const SESSION_STATUS_TEXT = { pending: 'pending', complete: 'complete', failed: 'failed' } as const;

/** A session status in the page's language; hint codes stay as the provider wrote them (they are codes). */
function sessionStatusText(t: Translate, status: string): string {
  return Object.hasOwn(SESSION_STATUS_TEXT, status) ? t(SESSION_STATUS_TEXT[status as keyof typeof SESSION_STATUS_TEXT]) : status;
}
