import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from '../api';
import { formatNumber } from '../format';
import { formatTime, useText } from '../i18n';
import { Confirm, ErrorMessage, SecretOnce } from './shared';

const SCOPES = ['sessions:read', 'sessions:write', 'otp'] as const;

/** A key as the listing returns it; the usage fields appear where the service reports them. */
interface ApiKeyRow {
  id: string;
  name: string | null;
  environment: 'test' | 'live';
  displayPrefix: string;
  lastFour: string;
  scopes: string[];
  perMinuteLimit: number | null;
  monthlyLimit: number | null;
  ipLimit: number | null;
  /** Above it a completion fails riskTooHigh (docs/api.md, "Risk"); null: any risk. */
  maxRisk: 'low' | 'moderate' | null;
  revokedAt: string | null;
  /** To within a minute (docs/security.md, "Last used"); null: never used. */
  lastUsedAt: string | null;
  usageThisMonth?: { requests: number; addresses: number };
}

const rowsOf = (body: ApiKeyRow[] | { data: ApiKeyRow[] }) => (Array.isArray(body) ? body : body.data);

export function ApiKeysPage() {
  const { t, language } = useText();
  const [keys, setKeys] = useState<ApiKeyRow[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [environment, setEnvironment] = useState<'test' | 'live'>('test');
  const [scopes, setScopes] = useState<string[]>(['sessions:read', 'sessions:write']);
  const [maxRisk, setMaxRisk] = useState<'' | 'low' | 'moderate'>('');

  const load = () => call<ApiKeyRow[] | { data: ApiKeyRow[] }>('GET', '/api/v1/api-keys').then((body) => setKeys(rowsOf(body)), setError);
  useEffect(() => void load(), []);

  const create = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const created = await call<{ key: string }>('POST', '/api/v1/api-keys', {
        name: name || undefined,
        environment,
        scopes,
        maxRisk: maxRisk || undefined,
      });
      setSecret(created.key);
      setName('');
      await load();
    } catch (e) {
      setError(e as ApiError);
    }
  };

  const revoke = async (id: string) => {
    setConfirming(null);
    setError(null);
    await call('POST', `/api/v1/api-keys/${id}/revoke`).catch(setError);
    await load();
  };

  const riskName = (risk: 'low' | 'moderate' | null) =>
    risk === 'low' ? t('riskLow') : risk === 'moderate' ? t('riskModerate') : t('anyRisk');
  const count = (value: number) => formatNumber(language, value);
  const limit = (value: number | null, unit: string) => `${value === null ? t('unlimited') : count(value)} ${unit}`;
  const used = (value: number, of: number | null, unit: 'usageRequests' | 'usageAddresses') =>
    t(unit, { used: count(value), limit: of === null ? t('unlimited') : count(of) });

  return (
    <section>
      <h1>{t('navKeys')}</h1>
      <ErrorMessage error={error} />
      {secret && <SecretOnce label={t('key')} secret={secret} onDone={() => setSecret(null)} />}
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">{t('navKeys')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('name')}</th>
              <th scope="col">{t('environment')}</th>
              <th scope="col">{t('key')}</th>
              <th scope="col">{t('scopes')}</th>
              <th scope="col">{t('limits')}</th>
              <th scope="col">{t('lastUsed')}</th>
              <th scope="col">{t('usage')}</th>
              <th scope="col">{t('status')}</th>
              <th scope="col">{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {keys?.length === 0 && (
              <tr>
                <td colSpan={9}>{t('keysEmpty')}</td>
              </tr>
            )}
            {keys?.map((key) => (
              <tr key={key.id} data-key-id={key.id}>
                <td>{key.name ?? t('none')}</td>
                <td>{key.environment}</td>
                <td>
                  <code class="key">
                    {key.displayPrefix}…{key.lastFour}
                  </code>
                </td>
                <td>{key.scopes.join(', ')}</td>
                <td>
                  {limit(key.perMinuteLimit, t('perMinute'))}
                  <br />
                  {limit(key.monthlyLimit, t('perMonth'))}
                  <br />
                  {limit(key.ipLimit, t('addresses'))}
                  <br />
                  {t('maxRisk')}: {riskName(key.maxRisk)}
                </td>
                <td>{key.lastUsedAt ? formatTime(language, key.lastUsedAt) : t('neverUsed')}</td>
                <td>
                  {key.usageThisMonth ? (
                    <>
                      {used(key.usageThisMonth.requests, key.monthlyLimit, 'usageRequests')}
                      <br />
                      {used(key.usageThisMonth.addresses, key.ipLimit, 'usageAddresses')}
                    </>
                  ) : (
                    t('none')
                  )}
                </td>
                <td>{key.revokedAt ? t('revoked') : t('active')}</td>
                <td>
                  {!key.revokedAt &&
                    (confirming === key.id ? (
                      <Confirm
                        question={t('confirmRevoke', { name: key.name ?? `${key.displayPrefix}…${key.lastFour}` })}
                        yes={t('yesRevoke')}
                        onYes={() => void revoke(key.id)}
                        onNo={() => setConfirming(null)}
                      />
                    ) : (
                      <button
                        type="button"
                        class="danger"
                        onClick={() => setConfirming(key.id)}
                        aria-label={`${t('revoke')} ${key.name ?? key.lastFour}`}
                      >
                        {t('revoke')}
                      </button>
                    ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form class="panel" onSubmit={(event) => void create(event)}>
        <h2>{t('createKey')}</h2>
        <label for="key-name">{t('name')}</label>
        <input id="key-name" maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <label for="key-environment">{t('environment')}</label>
        <select id="key-environment" value={environment} onChange={(e) => setEnvironment(e.currentTarget.value as 'test' | 'live')}>
          <option value="test">test</option>
          <option value="live">live</option>
        </select>
        <label for="key-max-risk">{t('maxRisk')}</label>
        <select id="key-max-risk" value={maxRisk} onChange={(e) => setMaxRisk(e.currentTarget.value as '' | 'low' | 'moderate')}>
          <option value="">{t('anyRisk')}</option>
          <option value="low">{t('riskLow')}</option>
          <option value="moderate">{t('riskModerate')}</option>
        </select>
        <fieldset>
          <legend>{t('scopes')}</legend>
          {SCOPES.map((scope) => (
            <label key={scope} class="check">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) => setScopes(e.currentTarget.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))}
              />
              {scope}
            </label>
          ))}
        </fieldset>
        <button type="submit">{t('create')}</button>
      </form>
    </section>
  );
}
