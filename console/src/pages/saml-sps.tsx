import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from '../api';
import { useText } from '../i18n';
import { SamlSpForm } from './saml-sp-form';
import { fieldsOf, NEW_SAML_SP, type SamlSpView } from './saml-sp-fields';
import { Confirm, ErrorMessage } from './shared';

type Pending = { kind: 'edit' | 'delete'; id: string } | null;

/** A PEM certificate's first and last characters of its body: enough to tell two apart on the page. */
const fingerprintOf = (pem: string) => {
  const body = pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
  return body.length > 24 ? `${body.slice(0, 12)}…${body.slice(-12)}` : body;
};

/** The team's SAML service providers (docs/saml.md, "Registering a service provider"): register, edit, delete. */
export function SamlSpsPage() {
  const { t } = useText();
  const [sps, setSps] = useState<SamlSpView[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  // A new key remounts the creation form empty after a successful registration.
  const [formKey, setFormKey] = useState(0);

  const load = () => call<{ data: SamlSpView[] }>('GET', '/api/v1/saml-service-providers').then((body) => setSps(body.data), setError);
  useEffect(() => void load(), []);

  /** Runs one change, shows its error or notice, and reloads the list. */
  const act = async (work: () => Promise<unknown>, done?: string) => {
    setError(null);
    setNotice(null);
    try {
      await work();
      if (done) setNotice(done);
      setPending(null);
    } catch (e) {
      setError(e as ApiError);
    } finally {
      await load();
    }
  };

  return (
    <section>
      <h1>{t('navSamlSps')}</h1>
      <ErrorMessage error={error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {sps?.length === 0 && <p>{t('samlSpsEmpty')}</p>}
      <ul class="cards">
        {sps?.map((sp) => (
          <li key={sp.id} class="card" data-sp-id={sp.id}>
            <h2>{sp.name}</h2>
            <dl>
              <dt>{t('entityId')}</dt>
              <dd>
                <code>{sp.entityId}</code>
              </dd>
              <dt>{t('environment')}</dt>
              <dd>{sp.environment}</dd>
              <dt>{t('acsUrlsTitle')}</dt>
              <dd class="uris">
                {sp.acsUrls.map((url) => (
                  <code key={url}>{url}</code>
                ))}
              </dd>
              <dt>{t('certificates')}</dt>
              <dd class="uris">
                <span>
                  {t('certificateSigning')}: <code>{fingerprintOf(sp.signingCertificate)}</code>
                </span>
                {sp.encryptionCertificate ? (
                  <span>
                    {t('certificateEncryption')}: <code>{fingerprintOf(sp.encryptionCertificate)}</code>
                  </span>
                ) : (
                  <span>{t('noEncryption')}</span>
                )}
              </dd>
              <dt>{t('providers')}</dt>
              <dd>{sp.providers?.join(', ') ?? t('allProviders')}</dd>
              <dt>{t('attributesReleased')}</dt>
              <dd>{sp.attributes.join(', ')}</dd>
              <dt>{t('idpMetadata')}</dt>
              <dd>
                <code>{sp.metadataUrl}</code>
              </dd>
            </dl>
            {pending?.id !== sp.id ? (
              <div class="actions">
                <button type="button" onClick={() => setPending({ kind: 'edit', id: sp.id })}>
                  {t('editSamlSp')}
                </button>
                <button type="button" class="danger" onClick={() => setPending({ kind: 'delete', id: sp.id })}>
                  {t('delete')}
                </button>
              </div>
            ) : pending.kind === 'edit' ? (
              <SamlSpForm
                prefix={`edit-${sp.id}`}
                initial={fieldsOf(sp)}
                creating={false}
                onSubmit={(body) => void act(() => call('PATCH', `/api/v1/saml-service-providers/${sp.id}`, body), t('clientSaved'))}
                onCancel={() => setPending(null)}
              />
            ) : (
              <Confirm
                question={t('confirmDeleteSamlSp', { name: sp.name })}
                yes={t('yesDelete')}
                onYes={() => void act(() => call('DELETE', `/api/v1/saml-service-providers/${sp.id}`))}
                onNo={() => setPending(null)}
              />
            )}
          </li>
        ))}
      </ul>
      <div class="panel">
        <h2>{t('createSamlSp')}</h2>
        <SamlSpForm
          key={formKey}
          prefix="new-sp"
          initial={NEW_SAML_SP}
          creating
          onSubmit={(body) =>
            void act(async () => {
              await call('POST', '/api/v1/saml-service-providers', body);
              setFormKey(formKey + 1);
            })
          }
        />
      </div>
    </section>
  );
}
