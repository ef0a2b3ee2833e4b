import { useState } from 'preact/hooks';
import { useText } from '../i18n';
import { SAML_ATTRIBUTES, samlSpBodyOf, type SamlSpFields } from './saml-sp-fields';

/** The registration form, for a new service provider or an edit of one (`prefix` keeps two forms' ids apart). */
export function SamlSpForm(props: {
  prefix: string;
  initial: SamlSpFields;
  creating: boolean;
  onSubmit: (body: object) => void;
  onCancel?: () => void;
}) {
  const { t } = useText();
  const [fields, setFields] = useState(props.initial);
  const set = (changes: Partial<SamlSpFields>) => setFields({ ...fields, ...changes });
  const id = (name: string) => `${props.prefix}-${name}`;
  const toggle = (attribute: string, on: boolean) =>
    set({ attributes: fields.attributes.filter((a) => a !== attribute).concat(on ? [attribute] : []) });
  const submit = (event: Event) => {
    event.preventDefault();
    props.onSubmit(samlSpBodyOf(fields, props.creating));
  };

  return (
    <form class="client-form" onSubmit={submit}>
      <label for={id('name')}>{t('name')}</label>
      <input id={id('name')} required maxLength={100} value={fields.name} onInput={(e) => set({ name: e.currentTarget.value })} />
      {props.creating && (
        <>
          <label for={id('entity-id')}>{t('entityId')}</label>
          <input
            id={id('entity-id')}
            required
            maxLength={512}
            value={fields.entityId}
            onInput={(e) => set({ entityId: e.currentTarget.value })}
          />
          <label for={id('environment')}>{t('environment')}</label>
          <select
            id={id('environment')}
            value={fields.environment}
            onChange={(e) => set({ environment: e.currentTarget.value as SamlSpFields['environment'] })}
          >
            <option value="test">test</option>
            <option value="live">live</option>
          </select>
        </>
      )}
      <label for={id('acs')}>{t('acsUrls')}</label>
      <textarea id={id('acs')} required rows={3} value={fields.acsUrls} onInput={(e) => set({ acsUrls: e.currentTarget.value })} />
      <label for={id('slo')}>{t('singleLogoutUrl')}</label>
      <input id={id('slo')} type="url" value={fields.singleLogoutUrl} onInput={(e) => set({ singleLogoutUrl: e.currentTarget.value })} />
      <label for={id('signing')}>{t('signingCertificate')}</label>
      <textarea
        id={id('signing')}
        required
        rows={4}
        class="pem"
        value={fields.signingCertificate}
        onInput={(e) => set({ signingCertificate: e.currentTarget.value })}
      />
      <label for={id('encryption')}>{t('encryptionCertificate')}</label>
      <textarea
        id={id('encryption')}
        rows={4}
        class="pem"
        value={fields.encryptionCertificate}
        onInput={(e) => set({ encryptionCertificate: e.currentTarget.value })}
      />
      <label for={id('providers')}>{t('samlProviders')}</label>
      <textarea id={id('providers')} rows={2} value={fields.providers} onInput={(e) => set({ providers: e.currentTarget.value })} />
      <fieldset>
        <legend>{t('attributesReleased')}</legend>
        {SAML_ATTRIBUTES.map((attribute) => (
          <label key={attribute} class="check">
            <input
              type="checkbox"
              checked={fields.attributes.includes(attribute)}
              onChange={(e) => toggle(attribute, e.currentTarget.checked)}
            />
            {attribute}
          </label>
        ))}
      </fieldset>
      <button type="submit">{props.creating ? t('create') : t('save')}</button>
      {props.onCancel && (
        <button type="button" onClick={props.onCancel}>
          {t('cancel')}
        </button>
      )}
    </form>
  );
}
