import { useState } from 'preact/hooks';
import { ApiError, call } from '../api';
import { formatTime, useText } from '../i18n';
import { ErrorMessage } from './shared';

interface CodeIssued {
  userGuid: string;
  validationCodeValidUntilUtc: string;
}

/** The console's own OTP login (docs/console.md): e-mail or phone → code → session cookie. */
export function LoginPage({ onLoggedIn }: { onLoggedIn: () => Promise<void> }) {
  const { t, language } = useText();
  const [contact, setContact] = useState('');
  const [issued, setIssued] = useState<CodeIssued | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(e as ApiError);
    } finally {
      setBusy(false);
    }
  };

  const requestCode = (event: Event) => {
    event.preventDefault();
    const trimmed = contact.trim();
    const body = trimmed.startsWith('+') ? { e164MobilePhoneNumber: trimmed.replace(/[\s-]/g, '') } : { email: trimmed };
    void run(async () => setIssued(await call<CodeIssued>('POST', '/console/login/code', body)));
  };

  const validate = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await call('POST', '/console/login/validate', { userGuid: issued!.userGuid, validationCode: code.trim() });
      // A member whose team's subscription ended is refused here, and sees why.
      await onLoggedIn();
    });
  };

  // The validity is UTC without a zone designator (docs/otp-and-tokens.md).
  const validUntil = issued ? formatTime(language, `${issued.validationCodeValidUntilUtc}Z`) : '';

  return (
    <section class="login">
      <h1>{t('loginTitle')}</h1>
      {!issued ? (
        <form onSubmit={requestCode}>
          <p>{t('loginIntro')}</p>
          <label for="contact">{t('contact')}</label>
          <input
            id="contact"
            name="contact"
            required
            autoComplete="username"
            value={contact}
            onInput={(e) => setContact(e.currentTarget.value)}
          />
          <button type="submit" disabled={busy}>
            {t('sendCode')}
          </button>
        </form>
      ) : (
        <form onSubmit={validate}>
          <p role="status">
            {t('codeSent')} {validUntil}.
          </p>
          <label for="code">{t('code')}</label>
          <input
            id="code"
            name="code"
            required
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            value={code}
            onInput={(e) => setCode(e.currentTarget.value)}
          />
          <button type="submit" disabled={busy}>
            {t('logIn')}
          </button>
          <button type="button" class="link" onClick={() => (setIssued(null), setCode(''), setError(null))}>
            {t('otherContact')}
          </button>
        </form>
      )}
      <ErrorMessage error={error} />
    </section>
  );
}
