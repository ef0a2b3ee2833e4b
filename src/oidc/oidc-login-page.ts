import type { EidOperation } from '../eid-providers/eid-provider.js';
import type { LoginDevice } from './oidc-login-records.js';

export const LOGIN_LANGUAGES = ['sv', 'en'] as const;
export type LoginLanguage = (typeof LOGIN_LANGUAGES)[number];

interface Texts {
  title: string;
  heading: (client: string) => string;
  signTitle: string;
  signHeading: (client: string) => string;
  payTitle: string;
  payHeading: (client: string) => string;
  cancel: string;
  noScript: string;
  problem: string;
  otherBrowser: string;
  returnsTo: (host: string) => string;
  thisDevice: string;
  otherDevice: string;
  continueThere: string;
  awaitReturn: string;
}

const TEXT: Record<LoginLanguage, Texts> = {
  sv: {
    title: 'Legitimera dig',
    heading: (client) => `Legitimera dig för att logga in på ${client}`,
    signTitle: 'Skriv under',
    signHeading: (client) => `Skriv under för ${client}`,
    payTitle: 'Godkänn betalningen',
    payHeading: (client) => `Godkänn betalningen till ${client}`,
    cancel: 'Avbryt',
    noScript: 'Sidan behöver JavaScript för att visa QR-koden.',
    problem: 'Inloggningen har gått ut eller är ogiltig. Gå tillbaka och försök igen.',
    otherBrowser:
      'Inloggningen startades i en annan webbläsare och kan bara avslutas där. Startade du den inte själv har någon skickat länken till dig: den loggar inte in någon.',
    returnsTo: (host) => `Därefter skickas du till ${host}.`,
    thisDevice: 'Öppna appen på den här enheten',
    otherDevice: 'Appen på en annan enhet: visa QR-kod',
    continueThere: 'Fortsätt till e-legitimationens inloggning',
    awaitReturn: 'Fortsätt i webbläsaren som appen öppnar.',
  },
  en: {
    title: 'Identify yourself',
    heading: (client) => `Identify yourself to log in to ${client}`,
    signTitle: 'Sign',
    signHeading: (client) => `Sign for ${client}`,
    payTitle: 'Approve the payment',
    payHeading: (client) => `Approve the payment to ${client}`,
    cancel: 'Cancel',
    noScript: 'This page needs JavaScript to show the QR code.',
    problem: 'The login has expired or is invalid. Go back and try again.',
    otherBrowser:
      'This login was started in another browser and can only finish there. If you did not start it, someone sent you the link: it logs nobody in.',
    returnsTo: (host) => `Afterwards you are sent to ${host}.`,
    thisDevice: 'Open the app on this device',
    otherDevice: 'The app on another device: show a QR code',
    continueThere: "Continue to the e-ID's login",
    awaitReturn: 'Carry on in the browser the app opens.',
  },
};

const titleOf = (text: Texts, operation: EidOperation) =>
  operation === 'sign' ? text.signTitle : operation === 'payment' ? text.payTitle : text.title;
const headingOf = (text: Texts, operation: EidOperation) =>
  operation === 'sign' ? text.signHeading : operation === 'payment' ? text.payHeading : text.heading;

/** The first of the client's ui_locales we speak (docs/oidc.md, "The login page"); Swedish otherwise. */
export function loginLanguage(uiLocales: unknown): LoginLanguage {
  const wanted = typeof uiLocales === 'string' ? uiLocales.split(' ') : [];
  for (const tag of wanted) {
    const language = tag.toLowerCase().split('-')[0];
    if (language === 'sv' || language === 'en') return language;
  }
  return 'sv';
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

interface PageCommon {
  language: LoginLanguage;
  uid: string;
  /** The client's own name: unverified, so the page also names where the browser goes next. */
  clientName: string;
  /** The redirect URI's host (docs/oidc.md, "The login page"). */
  redirectHost: string;
  /** A signature or payment over OIDC (docs/oidc.md, "Signing", "Payment"): the page says so. */
  operation: EidOperation;
  assetVersion: string;
}

export interface LoginPageInput extends PageCommon {
  sessionId: string;
  kioskToken: string;
  /** `<eid-qr device>`: the one way the person chose; absent where the provider offers one anyway. */
  device?: LoginDevice;
  /** The app on this device was opened: only the browser it returns to goes on (docs/oidc.md, "Same device"). */
  awaitReturn: boolean;
  /** Where the page's end (`/done`) and cancel live: the OIDC interaction's, or another front's (docs/saml.md). */
  actionBase?: string;
}

export interface LoginChoiceInput extends PageCommon {
  devices: LoginDevice[];
  /** The e-ID signs the person in at its own site (an upstream): one button that goes there. */
  redirects: boolean;
}

const head = (language: LoginLanguage, title: string, assetVersion: string, scripts: boolean) => `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title}</title>
<link rel="stylesheet" href="/oidc/interaction-assets/login.css?v=${assetVersion}">
${
  scripts
    ? `<script type="module" src="/kiosk/eid-qr.js"></script>
<script type="module" src="/oidc/interaction-assets/login.js?v=${assetVersion}"></script>
`
    : ''
}</head>`;

const heading = (text: Texts, input: PageCommon) => `<h1>${escapeHtml(headingOf(text, input.operation)(input.clientName))}</h1>
  ${input.redirectHost ? `<p class="returns-to">${escapeHtml(text.returnsTo(input.redirectHost))}</p>` : ''}`;

/** `base`: the escaped path of the interaction (the OIDC one, or another front's). */
const cancelForm = (text: Texts, base: string) =>
  `<form method="post" action="${base}/cancel"><button type="submit" class="cancel">${text.cancel}</button></form>`;

/**
 * Before any e-ID order: the person chooses where to open the app, and that gesture starts the
 * session (docs/oidc.md, "The login page"). A plain form, so it needs no script.
 */
export function loginChoicePage(input: LoginChoiceInput): string {
  const text = TEXT[input.language];
  const uid = escapeHtml(input.uid);
  const label: Record<LoginDevice, string> = { this: input.redirects ? text.continueThere : text.thisDevice, other: text.otherDevice };
  const buttons = input.devices
    .map(
      (device, at) =>
        `<button type="submit" name="device" value="${device}" class="${at === 0 ? 'start' : 'start other'}">${label[device]}</button>`,
    )
    .join('\n    ');
  return `${head(input.language, titleOf(text, input.operation), input.assetVersion, false)}
<body>
<main class="login">
  ${heading(text, input)}
  <form method="post" action="/oidc/interaction/${uid}/start" class="devices">
    ${buttons}
  </form>
  ${cancelForm(text, `/oidc/interaction/${uid}`)}
</main>
</body>
</html>
`;
}

/**
 * The login page: `<eid-qr>` for the e-ID session the interaction started (a QR on a computer, "Open
 * BankID" first on a phone), a cancel button, and login.js, which follows the element and goes on
 * when the session ends. No inline script or style: the CSP below allows our own files only.
 */
export function loginPage(input: LoginPageInput): string {
  const text = TEXT[input.language];
  const base = escapeHtml(input.actionBase ?? `/oidc/interaction/${input.uid}`);
  const device = input.device ? ` device="${input.device}"` : '';
  return `${head(input.language, titleOf(text, input.operation), input.assetVersion, true)}
<body>
<main class="login" data-done="${base}/done"${input.awaitReturn ? ' data-await-return' : ''}>
  ${heading(text, input)}
  <eid-qr session="${escapeHtml(input.sessionId)}" token="${escapeHtml(input.kioskToken)}" lang="${input.language}"${device}></eid-qr>
  ${input.awaitReturn ? `<p class="await-return">${text.awaitReturn}</p>` : ''}
  <noscript><p>${text.noScript}</p></noscript>
  ${cancelForm(text, base)}
</main>
</body>
</html>
`;
}

/**
 * A page for an interaction that cannot go on (expired, unknown): no client to return to. `otherBrowser`:
 * the e-ID app returned to a browser that did not start the login (docs/oidc.md, "Same device").
 */
export function loginProblemPage(language: LoginLanguage, problem: 'problem' | 'otherBrowser' = 'problem'): string {
  const text = TEXT[language];
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${text.title}</title>
<link rel="stylesheet" href="/oidc/interaction-assets/login.css"></head>
<body><main class="login"><p class="problem">${text[problem]}</p></main></body>
</html>
`;
}

/** A strict policy: our own scripts, styles and connections only, no framing, no Referer (docs/oidc.md). */
export const LOGIN_PAGE_HEADERS: Record<string, string> = {
  'content-security-policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};
