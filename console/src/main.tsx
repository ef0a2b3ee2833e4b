import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { call, whenUnauthorized } from './api';
import { LanguageContext, translator, type Language, type TextKey } from './i18n';
import { ApiKeysPage } from './pages/api-keys';
import { AuditPage } from './pages/audit';
import { CounterLinksPage } from './pages/counter-links';
import { DeliveriesPage } from './pages/deliveries';
import { LoginPage } from './pages/login';
import { MembersPage } from './pages/members';
import { OidcClientsPage } from './pages/oidc-clients';
import { OverviewPage } from './pages/overview';
import { SamlSpsPage } from './pages/saml-sps';
import { SessionTimelinePage } from './pages/session-timeline';
import { SessionsPage } from './pages/sessions';
import { WebhooksPage } from './pages/webhooks';
import './styles.css';

interface Me {
  user: { id: string; email: string | null; phone: string | null };
  team: { name: string };
}

const PAGES: { hash: string; label: TextKey; Page: (props: { me: Me }) => preact.JSX.Element }[] = [
  { hash: '#/overview', label: 'navOverview', Page: OverviewPage },
  { hash: '#/api-keys', label: 'navKeys', Page: ApiKeysPage },
  { hash: '#/webhooks', label: 'navWebhooks', Page: WebhooksPage },
  { hash: '#/oidc-clients', label: 'navOidcClients', Page: OidcClientsPage },
  { hash: '#/saml-service-providers', label: 'navSamlSps', Page: SamlSpsPage },
  { hash: '#/counter-links', label: 'navCounterLinks', Page: CounterLinksPage },
  { hash: '#/deliveries', label: 'navDeliveries', Page: DeliveriesPage },
  { hash: '#/sessions', label: 'navSessions', Page: SessionsPage },
  { hash: '#/audit', label: 'navAudit', Page: AuditPage },
  { hash: '#/members', label: 'navMembers', Page: ({ me }) => <MembersPage selfId={me.user.id} /> },
];

const TIMELINE = {
  hash: '#/timeline',
  label: 'navSessions' as TextKey,
  Page: () => <SessionTimelinePage sessionId={location.hash.slice('#/sessions/'.length)} />,
};

function initialLanguage(): Language {
  const stored = localStorage.getItem('console-language');
  if (stored === 'sv' || stored === 'en') return stored;
  return navigator.language.startsWith('sv') ? 'sv' : 'en';
}

function App() {
  const [language, setLanguage] = useState<Language>(initialLanguage);
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [hash, setHash] = useState(location.hash);
  const t = useMemo(() => translator(language), [language]);

  useEffect(() => {
    document.documentElement.lang = language;
    localStorage.setItem('console-language', language);
  }, [language]);

  useEffect(() => {
    const onHash = () => setHash(location.hash);
    addEventListener('hashchange', onHash);
    whenUnauthorized(() => setMe(null));
    call<Me>('GET', '/api/v1/me').then(setMe, () => setMe(null));
    return () => removeEventListener('hashchange', onHash);
  }, []);

  // A session's timeline lives under the sessions page: #/sessions/<id>.
  const timelineOf = /^#\/sessions\/([0-9a-f-]{36})$/.exec(hash)?.[1];
  const current = timelineOf ? TIMELINE : (PAGES.find((page) => page.hash === hash) ?? PAGES[0]);
  useEffect(() => {
    document.title = `${me ? t(current.label) : t('loginTitle')} · ${t('appName')}`;
  }, [me, current, t]);

  const logOut = async () => {
    await call('POST', '/console/logout');
    setMe(null);
  };

  return (
    <LanguageContext.Provider value={{ language, t }}>
      <a class="skip" href="#main">
        {t('skipToContent')}
      </a>
      <header class="top">
        <span class="brand">{t('appName')}</span>
        {me && (
          <nav aria-label={t('navigation')}>
            <ul>
              {PAGES.map((page) => (
                <li key={page.hash}>
                  <a href={page.hash} aria-current={page === current ? 'page' : undefined}>
                    {t(page.label)}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <div class="tools">
          <label>
            <span class="visually-hidden">{t('language')}</span>
            <select value={language} onChange={(e) => setLanguage(e.currentTarget.value as Language)}>
              <option value="sv">Svenska</option>
              <option value="en">English</option>
            </select>
          </label>
          {me && (
            <>
              <span class="who">
                {t('loggedInAs')} {me.user.email ?? me.user.phone} · {me.team.name}
              </span>
              <button type="button" onClick={() => void logOut()}>
                {t('logOut')}
              </button>
            </>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1} data-page={me ? current.hash.slice(2) : me === null ? 'login' : 'loading'}>
        {me === undefined ? (
          <p>{t('loading')}</p>
        ) : me === null ? (
          <LoginPage onLoggedIn={async () => setMe(await call<Me>('GET', '/api/v1/me'))} />
        ) : (
          <current.Page me={me} />
        )}
      </main>
    </LanguageContext.Provider>
  );
}

render(<App />, document.getElementById('app')!);
