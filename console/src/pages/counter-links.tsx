import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from '../api';
import { formatTime, useText } from '../i18n';
import { Confirm, ErrorMessage } from './shared';

interface CounterLink {
  id: string;
  label: string;
  environment: 'test' | 'live';
  provider: string;
  createdAt: string;
  revokedAt: string | null;
}

/** The team's counter links (docs/idcard.md): made here, their URL shown once, revoked here. */
export function CounterLinksPage() {
  const { t, language } = useText();
  const [links, setLinks] = useState<CounterLink[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [label, setLabel] = useState('');
  const [environment, setEnvironment] = useState<'test' | 'live'>('test');
  const [provider, setProvider] = useState('bankid');
  const [createdUrl, setCreatedUrl] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);

  const load = () => call<{ data: CounterLink[] }>('GET', '/api/v1/counter-links').then((answer) => setLinks(answer.data), setError);
  useEffect(() => void load(), []);

  const create = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const created = await call<CounterLink & { url: string }>('POST', '/api/v1/counter-links', { label, environment, provider });
      setCreatedUrl(created.url);
      setLabel('');
      await load();
    } catch (e) {
      setError(e as ApiError);
    }
  };

  const revoke = async (id: string) => {
    setConfirming(null);
    setError(null);
    await call('DELETE', `/api/v1/counter-links/${id}`).catch(setError);
    await load();
  };

  return (
    <section>
      <h1>{t('navCounterLinks')}</h1>
      <p>{t('counterLinksIntro')}</p>
      <ErrorMessage error={error} />
      {createdUrl && (
        <p class="notice" role="status">
          {t('counterLinkCreated')} <code id="counter-link-url">{createdUrl}</code>
        </p>
      )}
      {links?.length === 0 && <p>{t('counterLinksEmpty')}</p>}
      {links && links.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">{t('navCounterLinks')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('name')}</th>
                <th scope="col">{t('environment')}</th>
                <th scope="col">{t('counterProvider')}</th>
                <th scope="col">{t('created')}</th>
                <th scope="col">{t('actions')}</th>
              </tr>
            </thead>
            <tbody>
              {links.map((link) => (
                <tr key={link.id}>
                  <th scope="row">{link.label}</th>
                  <td>{link.environment}</td>
                  <td>{link.provider}</td>
                  <td>{formatTime(language, link.createdAt)}</td>
                  <td>
                    {link.revokedAt ? (
                      t('revoked')
                    ) : confirming === link.id ? (
                      <Confirm
                        question={t('confirmRevokeCounter', { name: link.label })}
                        yes={t('yesRevoke')}
                        onYes={() => void revoke(link.id)}
                        onNo={() => setConfirming(null)}
                      />
                    ) : (
                      <button type="button" class="danger" onClick={() => setConfirming(link.id)}>
                        {t('revoke')} <span class="visually-hidden">{link.label}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form class="panel" onSubmit={(event) => void create(event)}>
        <h2>{t('createCounterLink')}</h2>
        <label for="counter-label">{t('counterLabel')}</label>
        <input id="counter-label" required maxLength={100} value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
        <label for="counter-environment">{t('environment')}</label>
        <select id="counter-environment" value={environment} onChange={(e) => setEnvironment(e.currentTarget.value as 'test' | 'live')}>
          <option value="test">test</option>
          <option value="live">live</option>
        </select>
        <label for="counter-provider">{t('counterProvider')}</label>
        <select id="counter-provider" value={provider} onChange={(e) => setProvider(e.currentTarget.value)}>
          <option value="bankid">BankID</option>
          <option value="simulator">Simulator</option>
        </select>
        <button type="submit">{t('create')}</button>
      </form>
    </section>
  );
}
