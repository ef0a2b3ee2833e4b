import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from '../api';
import { useText } from '../i18n';
import { Confirm, ErrorMessage, SecretOnce } from './shared';

// The final events are an endpoint's default; progress events only when asked for (docs/webhooks.md).
export const FINAL_EVENT_TYPES = ['auth.session.completed', 'auth.session.failed', 'sign.session.completed', 'sign.session.failed'];
export const EVENT_TYPES = [...FINAL_EVENT_TYPES, 'auth.session.updated', 'sign.session.updated'];

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  environment: 'test' | 'live';
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
}

function EventTypeChecks({ legend, value, onChange }: { legend: string; value: string[]; onChange: (types: string[]) => void }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {EVENT_TYPES.map((type) => (
        <label key={type} class="check">
          <input
            type="checkbox"
            checked={value.includes(type)}
            onChange={(e) => onChange(e.currentTarget.checked ? [...value, type] : value.filter((v) => v !== type))}
          />
          {type}
        </label>
      ))}
    </fieldset>
  );
}

export function WebhooksPage() {
  const { t } = useText();
  const [endpoints, setEndpoints] = useState<Endpoint[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ id: string; eventTypes: string[] } | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [url, setUrl] = useState('');
  const [environment, setEnvironment] = useState<'test' | 'live'>('test');
  const [eventTypes, setEventTypes] = useState<string[]>([...FINAL_EVENT_TYPES]);

  const load = () => call<{ data: Endpoint[] }>('GET', '/api/v1/webhook-endpoints').then((body) => setEndpoints(body.data), setError);
  useEffect(() => void load(), []);

  /** Runs one change, shows its error or notice, and reloads the list. */
  const act = async (work: () => Promise<unknown>, done?: string) => {
    setError(null);
    setNotice(null);
    try {
      await work();
      if (done) setNotice(done);
    } catch (e) {
      setError(e as ApiError);
    }
    await load();
  };

  const create = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      const created = await call<{ secret: string }>('POST', '/api/v1/webhook-endpoints', { url, environment, eventTypes });
      setSecret(created.secret);
      setUrl('');
    });
  };

  return (
    <section>
      <h1>{t('navWebhooks')}</h1>
      <ErrorMessage error={error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {secret && <SecretOnce label={t('webhookSecret')} secret={secret} onDone={() => setSecret(null)} />}
      <h2>{t('endpoints')}</h2>
      {endpoints?.length === 0 && <p>{t('endpointsEmpty')}</p>}
      <ul class="cards">
        {endpoints?.map((endpoint) => (
          <li key={endpoint.id} class="card" data-endpoint-id={endpoint.id}>
            <h3>
              <code>{endpoint.url}</code>
            </h3>
            <dl>
              <dt>{t('environment')}</dt>
              <dd>{endpoint.environment}</dd>
              <dt>{t('eventTypes')}</dt>
              <dd>{endpoint.eventTypes.join(', ')}</dd>
              <dt>{t('status')}</dt>
              <dd>
                {endpoint.enabled ? t('enabled') : `${t('disabled')}${endpoint.disabledReason ? ` (${endpoint.disabledReason})` : ''}`}
              </dd>
            </dl>
            {editing?.id === endpoint.id ? (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  void act(() => call('PATCH', `/api/v1/webhook-endpoints/${endpoint.id}`, { eventTypes: editing.eventTypes })).then(() =>
                    setEditing(null),
                  );
                }}
              >
                <EventTypeChecks
                  legend={t('eventTypes')}
                  value={editing.eventTypes}
                  onChange={(types) => setEditing({ id: endpoint.id, eventTypes: types })}
                />
                <button type="submit">{t('save')}</button>
                <button type="button" onClick={() => setEditing(null)}>
                  {t('cancel')}
                </button>
              </form>
            ) : deleting === endpoint.id ? (
              <Confirm
                question={t('confirmDelete', { name: endpoint.url })}
                yes={t('yesDelete')}
                onYes={() => void act(() => call('DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`)).then(() => setDeleting(null))}
                onNo={() => setDeleting(null)}
              />
            ) : (
              <div class="actions">
                <button type="button" onClick={() => setEditing({ id: endpoint.id, eventTypes: endpoint.eventTypes })}>
                  {t('edit')}
                </button>
                <button
                  type="button"
                  onClick={() => void act(() => call('PATCH', `/api/v1/webhook-endpoints/${endpoint.id}`, { enabled: !endpoint.enabled }))}
                >
                  {endpoint.enabled ? t('disable') : t('enable')}
                </button>
                <button
                  type="button"
                  onClick={() =>
                    void act(async () =>
                      setSecret((await call<{ secret: string }>('POST', `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`)).secret),
                    )
                  }
                >
                  {t('rotate')}
                </button>
                <button
                  type="button"
                  disabled={!endpoint.enabled}
                  onClick={() => void act(() => call('POST', `/api/v1/webhook-endpoints/${endpoint.id}/test`), t('testQueued'))}
                >
                  {t('sendTest')}
                </button>
                <button type="button" class="danger" onClick={() => setDeleting(endpoint.id)}>
                  {t('delete')}
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      <form class="panel" onSubmit={create}>
        <h2>{t('createEndpoint')}</h2>
        <label for="endpoint-url">{t('url')}</label>
        <input
          id="endpoint-url"
          type="url"
          required
          placeholder="https://rp.example/hooks/eid"
          value={url}
          onInput={(e) => setUrl(e.currentTarget.value)}
        />
        <label for="endpoint-environment">{t('environment')}</label>
        <select id="endpoint-environment" value={environment} onChange={(e) => setEnvironment(e.currentTarget.value as 'test' | 'live')}>
          <option value="test">test</option>
          <option value="live">live</option>
        </select>
        <EventTypeChecks legend={t('eventTypes')} value={eventTypes} onChange={setEventTypes} />
        <button type="submit">{t('create')}</button>
      </form>
    </section>
  );
}
