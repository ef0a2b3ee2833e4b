import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from '../api';
import { useText } from '../i18n';
import { OidcClientForm } from './oidc-client-form';
import { NEW_CLIENT, type OidcClientView } from './oidc-client-fields';
import { Confirm, ErrorMessage, SecretOnce } from './shared';

type Pending = { kind: 'edit' | 'rotate' | 'delete'; id: string } | null;

/** The team's OpenID Connect clients (docs/oidc.md): register, edit, rotate the secret, delete. */
export function OidcClientsPage() {
  const { t } = useText();
  const [clients, setClients] = useState<OidcClientView[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  // A new key remounts the creation form empty after a successful registration.
  const [formKey, setFormKey] = useState(0);

  const load = () => call<{ data: OidcClientView[] }>('GET', '/api/v1/oidc-clients').then((body) => setClients(body.data), setError);
  useEffect(() => void load(), []);

  /** Runs one change, shows its error or notice, and reloads the list; true when it succeeded. */
  const act = async (work: () => Promise<unknown>, done?: string) => {
    setError(null);
    setNotice(null);
    try {
      await work();
      if (done) setNotice(done);
      setPending(null);
      return true;
    } catch (e) {
      setError(e as ApiError);
      return false;
    } finally {
      await load();
    }
  };

  const create = (body: object) =>
    void act(async () => {
      const created = await call<{ clientSecret: string | null }>('POST', '/api/v1/oidc-clients', body);
      setSecret(created.clientSecret);
      setFormKey(formKey + 1);
    });
  const rotate = (id: string) =>
    void act(async () =>
      setSecret((await call<{ clientSecret: string }>('POST', `/api/v1/oidc-clients/${id}/rotate-secret`)).clientSecret),
    );

  return (
    <section>
      <h1>{t('navOidcClients')}</h1>
      <ErrorMessage error={error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {secret && <SecretOnce label={t('clientSecret')} secret={secret} onDone={() => setSecret(null)} />}
      {clients?.length === 0 && <p>{t('oidcClientsEmpty')}</p>}
      <ul class="cards">
        {clients?.map((client) => (
          <li key={client.id} class="card" data-client-id={client.id}>
            <h2>{client.name}</h2>
            <dl>
              <dt>{t('clientId')}</dt>
              <dd>
                <code>{client.clientId}</code>
              </dd>
              <dt>{t('issuer')}</dt>
              <dd>
                <code>{client.issuer}</code>
              </dd>
              <dt>{t('environment')}</dt>
              <dd>{client.environment}</dd>
              <dt>{t('authMethod')}</dt>
              <dd>{client.tokenEndpointAuthMethod}</dd>
              <dt>{t('redirectUrisTitle')}</dt>
              <dd class="uris">
                {client.redirectUris.map((uri) => (
                  <code key={uri}>{uri}</code>
                ))}
              </dd>
              <dt>{t('providers')}</dt>
              <dd>{client.providers?.join(', ') ?? t('allProviders')}</dd>
              <dt>{t('maxRisk')}</dt>
              <dd>{client.maxRisk === 'low' ? t('riskLow') : client.maxRisk === 'moderate' ? t('riskModerate') : t('anyRisk')}</dd>
              <dt>{t('ciba')}</dt>
              <dd>
                {client.backchannelTokenDeliveryMode ?? t('cibaOff')}
                {client.backchannelClientNotificationEndpoint && <code> {client.backchannelClientNotificationEndpoint}</code>}
              </dd>
            </dl>
            {pending?.id !== client.id ? (
              <div class="actions">
                <button type="button" onClick={() => setPending({ kind: 'edit', id: client.id })}>
                  {t('editOidcClient')}
                </button>
                {client.tokenEndpointAuthMethod.startsWith('client_secret_') && (
                  <button type="button" onClick={() => setPending({ kind: 'rotate', id: client.id })}>
                    {t('rotateClientSecret')}
                  </button>
                )}
                <button type="button" class="danger" onClick={() => setPending({ kind: 'delete', id: client.id })}>
                  {t('delete')}
                </button>
              </div>
            ) : pending.kind === 'edit' ? (
              <OidcClientForm
                prefix={`edit-${client.id}`}
                initial={client}
                creating={false}
                onSubmit={(body) => void act(() => call('PATCH', `/api/v1/oidc-clients/${client.id}`, body), t('clientSaved'))}
                onCancel={() => setPending(null)}
              />
            ) : pending.kind === 'rotate' ? (
              <Confirm
                question={t('confirmRotateClient', { name: client.name })}
                yes={t('yesRotate')}
                onYes={() => rotate(client.id)}
                onNo={() => setPending(null)}
              />
            ) : (
              <Confirm
                question={t('confirmDeleteClient', { name: client.name })}
                yes={t('yesDelete')}
                onYes={() => void act(() => call('DELETE', `/api/v1/oidc-clients/${client.id}`))}
                onNo={() => setPending(null)}
              />
            )}
          </li>
        ))}
      </ul>
      <div class="panel">
        <h2>{t('createOidcClient')}</h2>
        <OidcClientForm key={formKey} prefix="new-client" initial={NEW_CLIENT} creating onSubmit={create} />
      </div>
    </section>
  );
}
