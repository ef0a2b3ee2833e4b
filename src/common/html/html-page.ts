import { createHash } from 'node:crypto';

// The server-rendered pages' one document shell and header set (docs/security.md, "Pages"): each page
// names only what its policy allows beyond "nothing", so no page can forget a header.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for an element's content or a quoted attribute value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

export interface HtmlDocument {
  /** The page's language, one of the fixed values the page chose. */
  language: string;
  /** Plain text; escaped here. */
  title: string;
  /** Markup after the title: the page's stylesheet and scripts. */
  head?: string;
  /** The markup of `<body>`, escaped by the page. */
  body: string;
}

/** The document every page sends: never indexed, sized for a phone. */
export function htmlDocument({ language, title, head = '', body }: HtmlDocument): string {
  return `<!doctype html>
<html lang="${escapeHtml(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title>
${head}</head>
<body>
${body}
</body>
</html>
`;
}

/** A page's own stylesheet inline, allowed by its hash: no second request and no 'unsafe-inline'. */
export function inlineStyle(css: string): { element: string; source: string } {
  return { element: `<style>${css}</style>`, source: `'sha256-${createHash('sha256').update(css).digest('base64')}'` };
}

export const SELF = "'self'";

type FetchDirective = 'script-src' | 'style-src' | 'img-src' | 'media-src' | 'connect-src';
const FETCH_DIRECTIVES: FetchDirective[] = ['script-src', 'style-src', 'img-src', 'media-src', 'connect-src'];

/** Scripts, styles, images and connections from this origin: a page built from its own files. */
export const OWN_FILES: Partial<Record<FetchDirective, string[]>> = {
  'script-src': [SELF],
  'style-src': [SELF],
  'img-src': [SELF],
  'connect-src': [SELF],
};

export interface PagePolicy {
  /** Sources by directive; a directive not named falls back to `default-src 'none'`. */
  allow?: Partial<Record<FetchDirective, string[]>>;
  /**
   * Where the page's forms may post, and be redirected after the post; default nowhere. `null` leaves
   * the directive out, for a page whose post ends in a redirect to a client's own address.
   */
  formAction?: string[] | null;
  /** Who may frame the page; default nobody. */
  frameAncestors?: string[];
  /** The page reads the camera (the ID card counter). */
  camera?: boolean;
}

/** The headers of an HTML page: its CSP, no caching, no Referer, no sniffing, its own browsing context. */
export function pageHeaders({ allow = {}, formAction = ["'none'"], frameAncestors = ["'none'"], camera = false }: PagePolicy = {}): Record<
  string,
  string
> {
  const csp = [
    "default-src 'none'",
    ...FETCH_DIRECTIVES.filter((directive) => allow[directive]).map((directive) => `${directive} ${allow[directive]!.join(' ')}`),
    "base-uri 'none'",
    ...(formAction ? [`form-action ${formAction.join(' ')}`] : []),
    `frame-ancestors ${frameAncestors.join(' ')}`,
  ].join('; ');
  const unframed = frameAncestors.length === 1 && frameAncestors[0] === "'none'";
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': `camera=(${camera ? 'self' : ''}), microphone=(), geolocation=(), payment=()`,
    // X-Frame-Options cannot list origins: sent only when nobody may frame, for browsers without frame-ancestors.
    ...(unframed ? { 'x-frame-options': 'DENY' } : {}),
  };
}
