import type { KioskAsset } from './kiosk-assets.js';

export const KIOSK_LANGUAGES = ['sv', 'en'] as const;
export type KioskLanguage = (typeof KIOSK_LANGUAGES)[number];

const TEXT: Record<KioskLanguage, { title: string; heading: string; noScript: string }> = {
  sv: {
    title: 'Legitimera dig',
    heading: 'Legitimera dig',
    noScript: 'Sidan behöver JavaScript för att visa QR-koden.',
  },
  en: {
    title: 'Identify yourself',
    heading: 'Identify yourself',
    noScript: 'This page needs JavaScript to show the QR code.',
  },
};

/**
 * The kiosk page: a heading around `<eid-qr>` in the chosen language; kiosk.js hands the element its
 * session and token, names the session's e-ID app in the heading once the element knows it, and the
 * element does the rest (docs/kiosk.md). It carries no
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
  <eid-qr lang="${language}"></eid-qr>
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
