import type { KoaContextWithOIDC } from 'oidc-provider';
import { escapeHtml, htmlDocument } from '../../common/html/html-page.js';
import { chooseLanguage, type Language } from '../../common/languages/languages.js';
import { LOGIN_PAGE_HEADERS } from '../login/oidc-login-page.js';

// oidc-provider's own logout and error pages load Google Fonts and come without our headers: these
// take their place (docs/oidc.md, "Pages"), under the login page's CSP, in the login page's style.

const TEXT: Record<Language, { logoutTitle: string; logoutQuestion: string; yes: string; no: string; loggedOut: string; error: string }> = {
  sv: {
    logoutTitle: 'Logga ut',
    logoutQuestion: 'Vill du logga ut?',
    yes: 'Ja, logga ut',
    no: 'Nej, förbli inloggad',
    loggedOut: 'Du är utloggad.',
    error: 'Något gick fel',
  },
  en: {
    logoutTitle: 'Log out',
    logoutQuestion: 'Do you want to log out?',
    yes: 'Yes, log me out',
    no: 'No, stay logged in',
    loggedOut: 'You are logged out.',
    error: 'Something went wrong',
  },
  nb: {
    logoutTitle: 'Logg ut',
    logoutQuestion: 'Vil du logge ut?',
    yes: 'Ja, logg meg ut',
    no: 'Nei, forbli innlogget',
    loggedOut: 'Du er logget ut.',
    error: 'Noe gikk galt',
  },
  da: {
    logoutTitle: 'Log ud',
    logoutQuestion: 'Vil du logge ud?',
    yes: 'Ja, log mig ud',
    no: 'Nej, forbliv logget ind',
    loggedOut: 'Du er logget ud.',
    error: 'Noget gik galt',
  },
  fi: {
    logoutTitle: 'Kirjaudu ulos',
    logoutQuestion: 'Haluatko kirjautua ulos?',
    yes: 'Kyllä, kirjaa minut ulos',
    no: 'Ei, pysy kirjautuneena',
    loggedOut: 'Olet kirjautunut ulos.',
    error: 'Jotain meni vikaan',
  },
};

type Context = KoaContextWithOIDC;

const languageOf = (ctx: Context) =>
  chooseLanguage((ctx.oidc?.params as { ui_locales?: unknown } | undefined)?.ui_locales, ctx.get('accept-language'));

function send(ctx: Context, language: Language, title: string, body: string): void {
  // The login page's headers, its content type among them.
  ctx.set(LOGIN_PAGE_HEADERS);
  ctx.body = htmlDocument({
    language,
    title,
    head: '<link rel="stylesheet" href="/oidc/interaction-assets/login.css">\n',
    body: `<main class="login">\n${body}\n</main>`,
  });
}

/** `features.rpInitiatedLogout.logoutSource`: the question, with the provider's form (its xsrf field) and two buttons. */
export function logoutSource(ctx: Context, form: string): void {
  const language = languageOf(ctx);
  const text = TEXT[language];
  send(
    ctx,
    language,
    text.logoutTitle,
    `<h1>${text.logoutQuestion}</h1>
${form}
<div class="devices">
<button type="submit" form="op.logoutForm" name="logout" value="yes" class="start">${text.yes}</button>
<button type="submit" form="op.logoutForm" class="start other">${text.no}</button>
</div>`,
  );
}

/** `features.rpInitiatedLogout.postLogoutSuccessSource`: a logout without a post-logout redirect URI. */
export function postLogoutSuccessSource(ctx: Context): void {
  const language = languageOf(ctx);
  send(ctx, language, TEXT[language].logoutTitle, `<h1>${TEXT[language].loggedOut}</h1>`);
}

/** `renderError`: an error the provider cannot send to a client (no valid redirect URI): its code and description. */
export function renderError(ctx: Context, out: { error?: unknown; error_description?: unknown }): void {
  const language = languageOf(ctx);
  const described = typeof out.error_description === 'string' ? `<p>${escapeHtml(out.error_description)}</p>` : '';
  send(
    ctx,
    language,
    TEXT[language].error,
    `<h1>${TEXT[language].error}</h1>\n<p class="problem"><code>${escapeHtml(typeof out.error === 'string' ? out.error : 'server_error')}</code></p>\n${described}`,
  );
}
