import { escapeHtml, htmlDocument, OWN_FILES, pageHeaders } from '../../common/html/html-page.js';
import type { EidOperation } from '../../eid-providers/eid-provider.js';
import type { Language } from '../../common/languages/languages.js';
import type { LoginDevice } from './oidc-login-records.js';
import { LOGIN_TEXT, type LoginTexts as Texts } from './oidc-login-texts.js';

/** An e-ID on the chooser: its acr, and its name and logo from its provider's OpenID face. */
export interface ChooserEntry {
  acr: string;
  name: string;
  logo?: string;
}

const titleOf = (text: Texts, operation: EidOperation) =>
  operation === 'sign' ? text.signTitle : operation === 'payment' ? text.payTitle : text.title;
const headingOf = (text: Texts, operation: EidOperation) =>
  operation === 'sign' ? text.signHeading : operation === 'payment' ? text.payHeading : text.heading;

interface PageCommon {
  language: Language;
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

export interface ChooserInput extends PageCommon {
  entries: ChooserEntry[];
}

export interface LoginChoiceInput extends PageCommon {
  devices: LoginDevice[];
  /** The e-ID signs the person in at its own site (an upstream): one button that goes there. */
  redirects: boolean;
}

const stylesheet = (assetVersion?: string) =>
  `<link rel="stylesheet" href="/oidc/interaction-assets/login.css${assetVersion ? `?v=${assetVersion}` : ''}">\n`;

const scripts = (assetVersion: string) => `<script type="module" src="/kiosk/eid-qr.js"></script>
<script type="module" src="/oidc/interaction-assets/login.js?v=${assetVersion}"></script>
`;

const heading = (text: Texts, input: PageCommon) => `<h1>${escapeHtml(headingOf(text, input.operation)(input.clientName))}</h1>
  ${input.redirectHost ? `<p class="returns-to">${escapeHtml(text.returnsTo(input.redirectHost))}</p>` : ''}`;

/** `base`: the escaped path of the interaction (the OIDC one, or another front's). */
const cancelForm = (text: Texts, base: string) =>
  `<form method="post" action="${base}/cancel"><button type="submit" class="cancel">${text.cancel}</button></form>`;

/**
 * Several e-IDs fit the request: the person picks one (docs/oidc.md, "The chooser"). Native buttons of
 * a plain form, so the keyboard and a screen reader work it without script; each logo is decorative
 * beside the e-ID's name, and comes from this origin (the CSP allows no other).
 */
/** The host a login returns to, named on its pages (the one name there the request cannot choose freely); '' when none. */
export function returnHostOf(url: unknown): string {
  try {
    return new URL(String(url)).host;
  } catch {
    return '';
  }
}

export function chooserPage(input: ChooserInput): string {
  const text = LOGIN_TEXT[input.language];
  const uid = escapeHtml(input.uid);
  const buttons = input.entries
    .map((entry) => {
      const logo = entry.logo ? `<img src="${escapeHtml(entry.logo)}" alt="" width="40" height="40">` : '';
      return `<li><button type="submit" name="acr" value="${escapeHtml(entry.acr)}" class="eid">${logo}<span>${escapeHtml(entry.name)}</span></button></li>`;
    })
    .join('\n      ');
  return htmlDocument({
    language: input.language,
    title: text.pickTitle,
    head: stylesheet(input.assetVersion),
    body: `<main class="login">
  ${heading(text, input)}
  <form method="post" action="/oidc/interaction/${uid}/pick" class="chooser" aria-labelledby="pick-prompt">
    <p id="pick-prompt">${text.pickPrompt}</p>
    <ul>
      ${buttons}
    </ul>
  </form>
  ${cancelForm(text, `/oidc/interaction/${uid}`)}
</main>`,
  });
}

/**
 * Before any e-ID order: the person chooses where to open the app, and that gesture starts the
 * session (docs/oidc.md, "The login page"). A plain form, so it needs no script.
 */
export function loginChoicePage(input: LoginChoiceInput): string {
  const text = LOGIN_TEXT[input.language];
  const uid = escapeHtml(input.uid);
  const label: Record<LoginDevice, string> = { this: input.redirects ? text.continueThere : text.thisDevice, other: text.otherDevice };
  const buttons = input.devices
    .map(
      (device, at) =>
        `<button type="submit" name="device" value="${device}" class="${at === 0 ? 'start' : 'start other'}">${label[device]}</button>`,
    )
    .join('\n    ');
  return htmlDocument({
    language: input.language,
    title: titleOf(text, input.operation),
    head: stylesheet(input.assetVersion),
    body: `<main class="login">
  ${heading(text, input)}
  <form method="post" action="/oidc/interaction/${uid}/start" class="devices">
    ${buttons}
  </form>
  ${cancelForm(text, `/oidc/interaction/${uid}`)}
</main>`,
  });
}

/**
 * The login page: `<eid-qr>` for the e-ID session the interaction started (a QR on a computer, "Open
 * BankID" first on a phone), a cancel button, and login.js, which follows the element and goes on
 * when the session ends. No inline script or style: the CSP below allows our own files only.
 */
export function loginPage(input: LoginPageInput): string {
  const text = LOGIN_TEXT[input.language];
  const base = escapeHtml(input.actionBase ?? `/oidc/interaction/${input.uid}`);
  const device = input.device ? ` device="${input.device}"` : '';
  return htmlDocument({
    language: input.language,
    title: titleOf(text, input.operation),
    head: stylesheet(input.assetVersion) + scripts(input.assetVersion),
    body: `<main class="login" data-done="${base}/done"${input.awaitReturn ? ' data-await-return' : ''}>
  ${heading(text, input)}
  <eid-qr session="${escapeHtml(input.sessionId)}" token="${escapeHtml(input.kioskToken)}" lang="${input.language}"${device}></eid-qr>
  ${input.awaitReturn ? `<p class="await-return">${text.awaitReturn}</p>` : ''}
  <noscript><p>${text.noScript}</p></noscript>
  ${cancelForm(text, base)}
</main>`,
  });
}

/**
 * A page for an interaction that cannot go on (expired, unknown): no client to return to. `otherBrowser`:
 * the e-ID app returned to a browser that did not start the login (docs/oidc.md, "Same device").
 */
export function loginProblemPage(language: Language, problem: 'problem' | 'otherBrowser' = 'problem'): string {
  const text = LOGIN_TEXT[language];
  return htmlDocument({
    language,
    title: text.title,
    head: stylesheet(),
    body: `<main class="login"><p class="problem">${text[problem]}</p></main>`,
  });
}

/**
 * A strict policy: our own scripts, styles and connections only, no framing, no Referer (docs/oidc.md).
 * No form-action: the page's forms end in a redirect to the client's own redirect URI.
 */
export const LOGIN_PAGE_HEADERS: Record<string, string> = pageHeaders({ allow: OWN_FILES, formAction: null });
