import { escapeHtml, htmlDocument, pageHeaders, SELF } from '../common/html/html-page.js';
import type { Language } from '../common/languages/languages.js';

/** The counter page's words in each language (docs/idcard.md, "The counter page"); the script reads them from data attributes. */
export interface CounterTexts {
  title: string;
  heading: string;
  scanLabel: string;
  scanHint: string;
  camera: string;
  verified: string;
  notVerified: string;
  expired: string;
  invalidLink: string;
  busy: string;
  years: string;
  over: string;
  noScript: string;
}

export const COUNTER_TEXT: Record<Language, CounterTexts> = {
  sv: {
    title: 'Kontrollera ID-kort',
    heading: 'Kontrollera digitalt ID-kort',
    scanLabel: 'ID-kortets kod',
    scanHint: 'Visa ID-kortets QR-kod för kameran, eller skanna den med streckkodsläsaren.',
    camera: 'Kamera',
    verified: 'Giltigt ID-kort',
    notVerified: 'Kunde inte kontrolleras',
    expired: 'Koden har gått ut eller använts. Be personen visa ID-kortet igen.',
    invalidLink: 'Länken till disken gäller inte längre.',
    busy: 'För många kontroller just nu. Vänta en minut.',
    years: '{age} år',
    over: '{age}+',
    noScript: 'Sidan behöver JavaScript.',
  },
  en: {
    title: 'Check ID card',
    heading: 'Check a digital ID card',
    scanLabel: "The ID card's code",
    scanHint: "Hold the ID card's QR code to the camera, or scan it with the barcode scanner.",
    camera: 'Camera',
    verified: 'Valid ID card',
    notVerified: 'Could not be verified',
    expired: 'The code has expired or was used. Ask the person to show the ID card again.',
    invalidLink: 'This counter link is no longer valid.',
    busy: 'Too many checks right now. Wait a minute.',
    years: '{age} years',
    over: '{age}+',
    noScript: 'This page needs JavaScript.',
  },
  nb: {
    title: 'Kontroller ID-kort',
    heading: 'Kontroller et digitalt ID-kort',
    scanLabel: 'ID-kortets kode',
    scanHint: 'Hold ID-kortets QR-kode mot kameraet, eller skann den med strekkodeleseren.',
    camera: 'Kamera',
    verified: 'Gyldig ID-kort',
    notVerified: 'Kunne ikke kontrolleres',
    expired: 'Koden er utløpt eller brukt. Be personen vise ID-kortet igjen.',
    invalidLink: 'Denne lenken til disken gjelder ikke lenger.',
    busy: 'For mange kontroller akkurat nå. Vent et minutt.',
    years: '{age} år',
    over: '{age}+',
    noScript: 'Siden trenger JavaScript.',
  },
  da: {
    title: 'Kontrollér ID-kort',
    heading: 'Kontrollér et digitalt ID-kort',
    scanLabel: 'ID-kortets kode',
    scanHint: 'Hold ID-kortets QR-kode op foran kameraet, eller scan den med stregkodelæseren.',
    camera: 'Kamera',
    verified: 'Gyldigt ID-kort',
    notVerified: 'Kunne ikke kontrolleres',
    expired: 'Koden er udløbet eller brugt. Bed personen vise ID-kortet igen.',
    invalidLink: 'Dette link til disken gælder ikke længere.',
    busy: 'For mange kontroller lige nu. Vent et minut.',
    years: '{age} år',
    over: '{age}+',
    noScript: 'Siden kræver JavaScript.',
  },
  fi: {
    title: 'Tarkista henkilökortti',
    heading: 'Tarkista digitaalinen henkilökortti',
    scanLabel: 'Henkilökortin koodi',
    scanHint: 'Näytä henkilökortin QR-koodi kameralle tai lue se viivakoodinlukijalla.',
    camera: 'Kamera',
    verified: 'Voimassa oleva henkilökortti',
    notVerified: 'Ei voitu tarkistaa',
    expired: 'Koodi on vanhentunut tai käytetty. Pyydä henkilöä näyttämään henkilökortti uudelleen.',
    invalidLink: 'Tämä tiskin linkki ei ole enää voimassa.',
    busy: 'Liian monta tarkistusta juuri nyt. Odota hetki.',
    years: '{age} vuotta',
    over: '{age}+',
    noScript: 'Sivu tarvitsee JavaScriptin.',
  },
};

/**
 * The counter page (docs/idcard.md): a camera view decoded with jsQR and a field a scanner types
 * into; counter.js sends the code with the link's token (from the URL fragment) and shows the green or
 * red answer. The page holds no secret and nothing from the request but the language (a fixed value).
 */
export function counterPage(language: Language, versions: Record<string, string>): string {
  const text = COUNTER_TEXT[language];
  const asset = (name: string) => `/kiosk/counter/assets/${name}?v=${versions[name]}`;
  const words = (Object.entries(text) as [string, string][])
    .map(([name, value]) => `data-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${escapeHtml(value)}"`)
    .join(' ');
  return htmlDocument({
    language,
    title: text.title,
    head: `<link rel="stylesheet" href="${asset('counter.css')}">
<script src="${asset('jsQR.js')}"></script>
<script type="module" src="${asset('counter.js')}"></script>
`,
    body: `<main class="counter" data-state="scanning" ${words}>
  <h1>${text.heading}</h1>
  <p id="hint">${text.scanHint}</p>
  <video id="camera" muted playsinline aria-label="${escapeHtml(text.camera)}"></video>
  <form id="scan">
    <label for="code">${text.scanLabel}</label>
    <input id="code" name="code" autocomplete="off" autofocus spellcheck="false">
  </form>
  <section id="answer" role="status" aria-live="assertive" hidden>
    <p id="verdict"></p>
    <p id="holder"></p>
    <p id="age"></p>
  </section>
  <noscript><p>${text.noScript}</p></noscript>
</main>`,
  });
}

/** Strict headers: our own files only, the camera for this page alone, no framing, no Referer, nothing cached. */
export const counterPageHeaders = (): Record<string, string> =>
  pageHeaders({
    allow: { 'script-src': [SELF], 'style-src': [SELF], 'media-src': [SELF, 'blob:', 'mediastream:'], 'connect-src': [SELF] },
    camera: true,
  });
