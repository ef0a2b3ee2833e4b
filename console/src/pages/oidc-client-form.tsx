import { useState } from 'preact/hooks';
import { useText } from '../i18n';
import { AUTH_METHODS, bodyOf, CLAIMS, lines, PROVIDERS, type Fields } from './oidc-client-fields';

/** The registration form, for a new client or an edit of one (`prefix` keeps the ids of two forms apart). */
export function OidcClientForm(props: {
  prefix: string;
  initial: Fields;
  creating: boolean;
  onSubmit: (body: object) => void;
  onCancel?: () => void;
}) {
  const { t } = useText();
  const [fields, setFields] = useState(props.initial);
  const [redirects, setRedirects] = useState(props.initial.redirectUris.join('\n'));
  const [logoutRedirects, setLogoutRedirects] = useState(props.initial.postLogoutRedirectUris.join('\n'));
  const set = (changes: Partial<Fields>) => setFields({ ...fields, ...changes });
  const id = (name: string) => `${props.prefix}-${name}`;
  const confidential = fields.tokenEndpointAuthMethod !== 'none';
  const toggleProvider = (provider: string, on: boolean) => {
    const chosen = (fields.providers ?? [...PROVIDERS]).filter((p) => p !== provider).concat(on ? [provider] : []);
    set({ providers: chosen.length === PROVIDERS.length ? null : PROVIDERS.filter((p) => chosen.includes(p)) });
  };
  const submit = (event: Event) => {
    event.preventDefault();
    props.onSubmit(bodyOf({ ...fields, redirectUris: lines(redirects), postLogoutRedirectUris: lines(logoutRedirects) }, props.creating));
  };

  return (
    <form class="client-form" onSubmit={submit}>
      <label for={id('name')}>{t('name')}</label>
      <input id={id('name')} required maxLength={100} value={fields.name} onInput={(e) => set({ name: e.currentTarget.value })} />
      <label for={id('redirects')}>{t('redirectUris')}</label>
      <textarea id={id('redirects')} required rows={3} value={redirects} onInput={(e) => setRedirects(e.currentTarget.value)} />
      <label for={id('logout-redirects')}>{t('postLogoutRedirectUris')}</label>
      <textarea id={id('logout-redirects')} rows={2} value={logoutRedirects} onInput={(e) => setLogoutRedirects(e.currentTarget.value)} />
      {props.creating && (
        <>
          <label for={id('environment')}>{t('environment')}</label>
          <select
            id={id('environment')}
            value={fields.environment}
            onChange={(e) => set({ environment: e.currentTarget.value as Fields['environment'] })}
          >
            <option value="test">test</option>
            <option value="live">live</option>
          </select>
          <label for={id('auth')}>{t('authMethod')}</label>
          <select
            id={id('auth')}
            value={fields.tokenEndpointAuthMethod}
            onChange={(e) => set({ tokenEndpointAuthMethod: e.currentTarget.value as Fields['tokenEndpointAuthMethod'] })}
          >
            {AUTH_METHODS.map((method) => (
              <option key={method} value={method}>
                {method === 'none' ? t('authNone') : method}
              </option>
            ))}
          </select>
          {fields.tokenEndpointAuthMethod === 'private_key_jwt' && (
            <>
              <label for={id('jwks-uri')}>{t('jwksUri')}</label>
              <input
                id={id('jwks-uri')}
                type="url"
                required
                value={fields.jwksUri ?? ''}
                onInput={(e) => set({ jwksUri: e.currentTarget.value })}
              />
            </>
          )}
        </>
      )}
      <fieldset>
        <legend>{t('providers')}</legend>
        {PROVIDERS.map((provider) => (
          <label key={provider} class="check">
            <input
              type="checkbox"
              checked={fields.providers === null || fields.providers.includes(provider)}
              onChange={(e) => toggleProvider(provider, e.currentTarget.checked)}
            />
            {provider}
          </label>
        ))}
      </fieldset>
      <label for={id('subject')}>{t('subjectType')}</label>
      <select
        id={id('subject')}
        value={fields.subjectType}
        onChange={(e) => set({ subjectType: e.currentTarget.value as Fields['subjectType'] })}
      >
        <option value="pairwise">{t('subjectPairwise')}</option>
        <option value="public">{t('subjectPublic')}</option>
      </select>
      <label for={id('claim')}>{t('personalNumberClaim')}</label>
      <select
        id={id('claim')}
        value={fields.personalNumberClaim ?? ''}
        onChange={(e) => set({ personalNumberClaim: e.currentTarget.value || null })}
      >
        <option value="">{t('noExtraClaim')}</option>
        {CLAIMS.map((claim) => (
          <option key={claim} value={claim}>
            {claim}
          </option>
        ))}
      </select>
      <label for={id('max-risk')}>{t('maxRisk')}</label>
      <select
        id={id('max-risk')}
        value={fields.maxRisk ?? ''}
        onChange={(e) => set({ maxRisk: (e.currentTarget.value || null) as Fields['maxRisk'] })}
      >
        <option value="">{t('anyRisk')}</option>
        <option value="low">{t('riskLow')}</option>
        <option value="moderate">{t('riskModerate')}</option>
      </select>
      <label class="check">
        <input
          type="checkbox"
          checked={fields.requirePushedAuthorizationRequests}
          onChange={(e) => set({ requirePushedAuthorizationRequests: e.currentTarget.checked })}
        />
        {t('requirePar')}
      </label>
      {confidential && (
        <>
          <label for={id('ciba')}>{t('ciba')}</label>
          <select
            id={id('ciba')}
            value={fields.backchannelTokenDeliveryMode ?? ''}
            onChange={(e) =>
              set({ backchannelTokenDeliveryMode: (e.currentTarget.value || null) as Fields['backchannelTokenDeliveryMode'] })
            }
          >
            <option value="">{t('cibaOff')}</option>
            <option value="poll">poll</option>
            <option value="ping">ping</option>
          </select>
          {fields.backchannelTokenDeliveryMode === 'ping' && (
            <>
              <label for={id('notification')}>{t('notificationEndpoint')}</label>
              <input
                id={id('notification')}
                type="url"
                required
                value={fields.backchannelClientNotificationEndpoint ?? ''}
                onInput={(e) => set({ backchannelClientNotificationEndpoint: e.currentTarget.value })}
              />
            </>
          )}
        </>
      )}
      <button type="submit">{props.creating ? t('create') : t('save')}</button>
      {props.onCancel && (
        <button type="button" onClick={props.onCancel}>
          {t('cancel')}
        </button>
      )}
    </form>
  );
}
