import { useState } from 'preact/hooks';
import type { ApiError } from '../api';
import { useText } from '../i18n';

/** The service's own words for what went wrong (problem details `detail`). */
export function ErrorMessage({ error }: { error: ApiError | null }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error.message}
    </p>
  );
}

/** A secret shown once (a new API key, a webhook signing secret), with a copy button. */
export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  const { t } = useText();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(secret);
    setCopied(true);
  };
  return (
    <div class="secret" role="region" aria-label={label}>
      <p>
        <strong>{t('secretOnce')}</strong>
      </p>
      <label for="secret-value">{label}</label>
      <div class="secret-row">
        <input id="secret-value" readOnly value={secret} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={() => void copy()}>
          {copied ? t('copied') : t('copy')}
        </button>
      </div>
      <button type="button" onClick={onDone}>
        {t('done')}
      </button>
    </div>
  );
}

/** An inline "are you sure?" in place of a destructive button. */
export function Confirm({ question, yes, onYes, onNo }: { question: string; yes: string; onYes: () => void; onNo: () => void }) {
  const { t } = useText();
  return (
    <div class="confirm" role="alertdialog" aria-label={question}>
      <p>{question}</p>
      <button type="button" class="danger" onClick={onYes}>
        {yes}
      </button>
      <button type="button" onClick={onNo}>
        {t('cancel')}
      </button>
    </div>
  );
}
