import type { KioskAsset } from './kiosk-assets.js';

export const KIOSK_LANGUAGES = ['sv', 'en'] as const;
export type KioskLanguage = (typeof KIOSK_LANGUAGES)[number];

const TEXT: Record<KioskLanguage, { title: string; heading: string; connecting: string; qrLabel: string; noScript: string }> = {
  sv: {
    title: 'Legitimera dig med BankID',
    heading: 'Legitimera dig med BankID',
    connecting: 'Ansluter…',
    qrLabel: 'QR-kod för BankID. Öppna BankID-appen och skanna koden.',
    noScript: 'Sidan behöver JavaScript för att visa QR-koden.',
  },
  en: {
    title: 'Identify yourself with BankID',
    heading: 'Identify yourself with BankID',
    connecting: 'Connecting…',
    qrLabel: 'QR code for BankID. Open the BankID app and scan the code.',
    noScript: 'This page needs JavaScript to show the QR code.',
  },
};

/**
 * The kiosk page: static markup in the chosen language; kiosk.js does the rest. It carries no
 * secret (the token stays in the URL fragment) and nothing from the request but the language,
 * which is one of two fixed values, so nothing here needs escaping.
 */
export function kioskPage(language: KioskLanguage, assets: Map<string, KioskAsset>): string {
  const text = TEXT[language];
  const asset = (name: string) => `assets/${name}?v=${assets.get(name)!.version}`;
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${text.title}</title>
<link rel="stylesheet" href="${asset('kiosk.css')}">
<script type="module" src="${asset('kiosk.js')}"></script>
</head>
<body>
<main class="kiosk" data-state="connecting">
  <h1 class="heading">${text.heading}</h1>
  <div class="stage">
    <canvas class="qr" id="qr" role="img" aria-label="${text.qrLabel}" width="0" height="0" hidden>${text.qrLabel}</canvas>
    <div class="outcome" id="outcome" hidden aria-hidden="true"></div>
    <div class="spinner" id="spinner" aria-hidden="true"></div>
  </div>
  <p class="message" id="message" role="status" aria-live="polite">${text.connecting}</p>
  <noscript><p class="message">${text.noScript}</p></noscript>
</main>
</body>
</html>
`;
}

/**
 * Headers of the page (docs/kiosk.md): no script but our own files, nothing cached, no Referer, and
 * framing only by the origins in KIOSK_FRAME_ANCESTORS.
 */
export function kioskPageHeaders(frameAncestors: string[]): Record<string, string> {
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors.join(' ')}`,
  ].join('; ');
  return {
    'content-security-policy': csp,
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    // X-Frame-Options cannot list origins: send it only for the default, for browsers without frame-ancestors.
    ...(frameAncestors.length === 1 && frameAncestors[0] === "'none'" ? { 'x-frame-options': 'DENY' } : {}),
  };
}
