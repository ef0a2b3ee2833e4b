import { escapeHtml, htmlDocument, OWN_FILES, pageHeaders } from '../common/html/html-page.js';
import type { Language } from '../common/languages/languages.js';
import type { KioskAsset } from './kiosk-assets.js';

/**
 * The page's own sentences in each language (docs/kiosk.md, "Languages"); `withApp` is the heading once
 * the session's e-ID app is known, a whole sentence with `{app}` in its place (kiosk.js fills it in).
 */
export interface KioskTexts {
  title: string;
  heading: string;
  withApp: string;
  noScript: string;
}

export const KIOSK_TEXT: Record<Language, KioskTexts> = {
  sv: {
    title: 'Legitimera dig',
    heading: 'Legitimera dig',
    withApp: 'Legitimera dig med {app}',
    noScript: 'Sidan behöver JavaScript för att visa QR-koden.',
  },
  en: {
    title: 'Identify yourself',
    heading: 'Identify yourself',
    withApp: 'Identify yourself with {app}',
    noScript: 'This page needs JavaScript to show the QR code.',
  },
  nb: {
    title: 'Identifiser deg',
    heading: 'Identifiser deg',
    withApp: 'Identifiser deg med {app}',
    noScript: 'Siden trenger JavaScript for å vise QR-koden.',
  },
  da: {
    title: 'Identificér dig',
    heading: 'Identificér dig',
    withApp: 'Identificér dig med {app}',
    noScript: 'Siden skal bruge JavaScript for at vise QR-koden.',
  },
  fi: {
    title: 'Tunnistaudu',
    heading: 'Tunnistaudu',
    withApp: 'Tunnistaudu {app}-sovelluksella',
    noScript: 'Sivu tarvitsee JavaScriptin QR-koodin näyttämiseen.',
  },
};

/**
 * The kiosk page: a heading around `<eid-qr>` in the chosen language; kiosk.js hands the element its
 * session and token, names the session's e-ID app in the heading once the element knows it, and the
 * element does the rest (docs/kiosk.md). It carries no
 * secret (the token stays in the URL fragment) and nothing from the request but the language, one of
 * five fixed values.
 */
export function kioskPage(language: Language, assets: Map<string, KioskAsset>): string {
  const text = KIOSK_TEXT[language];
  const asset = (name: string) => `assets/${name}?v=${assets.get(name)!.version}`;
  return htmlDocument({
    language,
    title: text.title,
    head: `<link rel="stylesheet" href="${asset('kiosk.css')}">
<script type="module" src="${asset('kiosk.js')}"></script>
`,
    body: `<main class="kiosk" data-state="connecting">
  <h1 class="heading" data-with-app="${escapeHtml(text.withApp)}">${text.heading}</h1>
  <eid-qr lang="${language}"></eid-qr>
  <noscript><p class="message">${text.noScript}</p></noscript>
</main>`,
  });
}

/**
 * Headers of the page (docs/kiosk.md): no script but our own files, nothing cached, no Referer, and
 * framing only by the origins in KIOSK_FRAME_ANCESTORS.
 */
export const kioskPageHeaders = (frameAncestors: string[]): Record<string, string> => pageHeaders({ allow: OWN_FILES, frameAncestors });
