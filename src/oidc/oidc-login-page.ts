import type { EidOperation } from '../eid-providers/eid-provider.js';

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

export interface LoginPageInput {
  language: LoginLanguage;
  uid: string;
  clientName: string;
  /** A signature or payment over OIDC (docs/oidc.md, "Signing", "Payment"): the page says so. */
  operation: EidOperation;
  sessionId: string;
  kioskToken: string;
  assetVersion: string;
  /** Where the page's end (`/done`) and cancel live: the OIDC interaction's, or another front's (docs/saml.md). */
  actionBase?: string;
}

/**
 * The login page: `<eid-qr>` for the e-ID session the interaction started (a QR on a computer, "Open
 * BankID" first on a phone), a cancel button, and login.js, which follows the element and goes on
 * when the session ends. No inline script or style: the CSP below allows our own files only.
 */
export function loginPage(input: LoginPageInput): string {
  const text = TEXT[input.language];
  const base = escapeHtml(input.actionBase ?? `/oidc/interaction/${input.uid}`);
  return `<!doctype html>
<html lang="${input.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${titleOf(text, input.operation)}</title>
<link rel="stylesheet" href="/oidc/interaction-assets/login.css?v=${input.assetVersion}">
<script type="module" src="/kiosk/eid-qr.js"></script>
<script type="module" src="/oidc/interaction-assets/login.js?v=${input.assetVersion}"></script>
</head>
<body>
<main class="login" data-done="${base}/done">
  <h1>${escapeHtml(headingOf(text, input.operation)(input.clientName))}</h1>
  <eid-qr session="${escapeHtml(input.sessionId)}" token="${escapeHtml(input.kioskToken)}" lang="${input.language}"></eid-qr>
  <noscript><p>${text.noScript}</p></noscript>
  <form method="post" action="${base}/cancel"><button type="submit" class="cancel">${text.cancel}</button></form>
</main>
</body>
</html>
`;
}

/** A page for an interaction that cannot go on (expired, unknown): no client to return to. */
export function loginProblemPage(language: LoginLanguage): string {
  const text = TEXT[language];
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${text.title}</title>
<link rel="stylesheet" href="/oidc/interaction-assets/login.css"></head>
<body><main class="login"><p class="problem">${text.problem}</p></main></body>
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
