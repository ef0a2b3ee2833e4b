import { escapeHtml, htmlDocument, inlineStyle, pageHeaders, SELF } from '../../../common/html/html-page.js';
import type { WalletRequestView } from './simulator-wallet.service.js';

export type WalletPageState = 'scan' | 'consent' | 'shared' | 'declined' | 'refused' | 'gone';
export type WalletPageLanguage = 'sv' | 'en';

// One small stylesheet, allowed by its hash, so the page needs no second request and no 'unsafe-inline'.
const STYLE = inlineStyle(
  `
:root { color-scheme: light; font-family: system-ui, sans-serif; }
body { margin: 0; background: #0b3d91; color: #fff; min-height: 100vh; display: flex; }
main { margin: auto; padding: 24px; width: 100%; max-width: 440px; box-sizing: border-box; }
h1 { font-size: 1.4rem; margin: 8px 0; }
p { line-height: 1.45; }
.badge { display: inline-block; padding: 2px 10px; border-radius: 999px; background: #ffcc00; color: #0b3d91; font-size: .8rem; font-weight: 700; }
form { display: grid; gap: 12px; margin-top: 24px; }
label { font-weight: 700; }
textarea { font: inherit; font-size: .9rem; border-radius: 8px; padding: 8px; min-height: 96px; }
button { font: inherit; font-size: 1.1rem; padding: 16px; border-radius: 12px; border: 0; cursor: pointer; min-height: 56px; }
.primary { background: #fff; color: #0b3d91; font-weight: 700; }
.button { display: block; text-align: center; text-decoration: none; padding: 16px; border-radius: 12px; }
.secondary { background: transparent; color: #fff; border: 2px solid #fff; }
ul { background: #fff; color: #0b3d91; border-radius: 12px; padding: 12px 16px 12px 36px; }
li { margin: 4px 0; font-weight: 700; }
`.trim(),
);

const TEXT = {
  sv: {
    title: 'EU-plånbok (simulator)',
    scan: ['Öppna en begäran', 'Klistra in länken från QR-koden (openid4vp://…). Det här är simulatorn: ingen riktig identitet används.'],
    link: 'Länk',
    open: 'Öppna',
    consent: ['Dela dina uppgifter?', 'vill ha följande uppgifter ur din personidentifieringsdata (PID):'],
    share: 'Dela',
    decline: 'Avböj',
    continue: 'Fortsätt till',
    shared: ['Klart', 'Dina uppgifter är delade. Du kan gå tillbaka till tjänsten.'],
    declined: ['Avböjt', 'Du delade inga uppgifter.'],
    refused: ['Inte godtaget', 'Tjänsten godtog inte uppgifterna.'],
    gone: ['Ingen begäran', 'Länken leder inte till en väntande begäran: den har använts, gått ut eller är inte giltig.'],
    claims: {
      given_name: 'Förnamn',
      family_name: 'Efternamn',
      birthdate: 'Födelsedatum',
      nationalities: 'Medborgarskap',
      personal_administrative_number: 'Personnummer',
    } as Record<string, string>,
  },
  en: {
    title: 'EU wallet (simulator)',
    scan: ['Open a request', 'Paste the link from the QR code (openid4vp://…). This is the simulator: no real identity is used.'],
    link: 'Link',
    open: 'Open',
    consent: ['Share your details?', 'asks for these details from your person identification data (PID):'],
    share: 'Share',
    decline: 'Decline',
    continue: 'Continue to',
    shared: ['Done', 'Your details were shared. You can go back to the service.'],
    declined: ['Declined', 'You shared nothing.'],
    refused: ['Not accepted', 'The service did not accept the details.'],
    gone: ['No request', 'This link does not lead to a waiting request: it was used, has expired or is not valid.'],
    claims: {
      given_name: 'Given name',
      family_name: 'Family name',
      birthdate: 'Date of birth',
      nationalities: 'Nationalities',
      personal_administrative_number: 'Personal administrative number',
    } as Record<string, string>,
  },
};

/** Swedish when the browser's first language is Swedish, else English. */
export function walletPageLanguage(acceptLanguage: string | undefined): WalletPageLanguage {
  const first = (acceptLanguage ?? '').slice(0, 100).split(',')[0].trim().toLowerCase();
  return first.startsWith('sv') ? 'sv' : 'en';
}

/**
 * The simulator wallet's one page (docs/eudi-wallet.md, "The simulator wallet"): static markup, no
 * script; opening and answering are plain forms. The verifier's name and host come from its access
 * certificate and the link is the visitor's: every value is escaped.
 */
export function simulatorWalletPage(
  state: WalletPageState,
  language: WalletPageLanguage,
  details: { request?: WalletRequestView; redirectUri?: string } = {},
): string {
  const { request, redirectUri } = details;
  const text = TEXT[language];
  let body: string;
  if (state === 'scan') {
    body = `<h1>${text.scan[0]}</h1><p>${text.scan[1]}</p>
<form method="get" action="/simulator/wallet"><label for="link">${text.link}</label>
<textarea id="link" name="link" required maxlength="2048"></textarea>
<button class="primary" id="open">${text.open}</button></form>`;
  } else if (state === 'consent' && request) {
    const items = request.claims.map((claim) => `<li>${escapeHtml(text.claims[claim] ?? claim)}</li>`).join('');
    body = `<h1>${text.consent[0]}</h1>
<p><strong id="verifier">${escapeHtml(request.verifierName)}</strong> (<span id="verifier-host">${escapeHtml(request.verifierHost)}</span>) ${text.consent[1]}</p>
<ul id="claims">${items}</ul>
<form method="post" action="/simulator/wallet"><input type="hidden" name="link" value="${escapeHtml(request.link)}">
<button class="primary" id="share" name="action" value="share">${text.share}</button>
<button class="secondary" id="decline" name="action" value="decline">${text.decline}</button></form>`;
  } else {
    const [heading, paragraph] = text[state === 'consent' ? 'gone' : state];
    // A link, not a redirect: the person sees where the service sends them, as a wallet opens its redirect_uri.
    const onward = redirectUri
      ? `<p><a class="primary button" id="continue" href="${escapeHtml(redirectUri)}">${text.continue} ${escapeHtml(new URL(redirectUri).host)}</a></p>`
      : '';
    body = `<h1>${heading}</h1><p>${paragraph}</p>${onward}`;
  }
  return htmlDocument({
    language,
    title: text.title,
    head: `${STYLE.element}\n`,
    body: `<main data-state="${state}">
<span class="badge">SIMULATOR</span>
${body}
</main>`,
  });
}

/**
 * A strict policy: no script, our one stylesheet by hash, forms only to this page; the way back to the
 * RP is a plain link.
 */
export const simulatorWalletPageHeaders = (): Record<string, string> =>
  pageHeaders({ allow: { 'style-src': [STYLE.source] }, formAction: [SELF] });
