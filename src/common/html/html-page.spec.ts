import { createHash } from 'node:crypto';
import { escapeHtml, htmlDocument, inlineStyle, OWN_FILES, pageHeaders, SELF } from './html-page.js';

const directives = (headers: Record<string, string>) => headers['content-security-policy'].split('; ');

describe('html-page', () => {
  it('should escape the five characters that end text or a quoted attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('should wrap a body in one document shell with its language and an escaped title', () => {
    const html = htmlDocument({ language: 'sv', title: 'A & <b>', head: '<link rel="stylesheet" href="/a.css">\n', body: '<main></main>' });
    expect(html.startsWith('<!doctype html>\n<html lang="sv">')).toBe(true);
    expect(html).toContain('<title>A &amp; &lt;b&gt;</title>\n<link rel="stylesheet" href="/a.css">\n</head>');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toContain('<body>\n<main></main>\n</body>');
  });

  it('should allow an inline stylesheet by the hash of exactly its text', () => {
    const style = inlineStyle('main { color: red; }');
    expect(style.element).toBe('<style>main { color: red; }</style>');
    expect(style.source).toBe(`'sha256-${createHash('sha256').update('main { color: red; }').digest('base64')}'`);
  });

  it('should allow nothing by default: no source, no form, no framing', () => {
    const headers = pageHeaders();
    expect(directives(headers)).toEqual(["default-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"]);
    expect(headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'cross-origin-opener-policy': 'same-origin',
      'x-frame-options': 'DENY',
      'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    });
  });

  it('should add only the sources a page names, in one fixed order', () => {
    const headers = pageHeaders({ allow: { 'connect-src': [SELF], 'media-src': [SELF, 'blob:'], 'script-src': [SELF] }, camera: true });
    expect(directives(headers).slice(0, 4)).toEqual([
      "default-src 'none'",
      "script-src 'self'",
      "media-src 'self' blob:",
      "connect-src 'self'",
    ]);
    expect(headers['permissions-policy']).toBe('camera=(self), microphone=(), geolocation=(), payment=()');
  });

  it('should leave form-action out only when asked with null', () => {
    expect(directives(pageHeaders({ allow: OWN_FILES, formAction: null })).some((d) => d.startsWith('form-action'))).toBe(false);
    expect(directives(pageHeaders({ formAction: [SELF, 'https://rp.example'] }))).toContain("form-action 'self' https://rp.example");
  });

  it('should send X-Frame-Options only when nobody may frame the page', () => {
    const framed = pageHeaders({ frameAncestors: [SELF, 'https://rp.example'] });
    expect(directives(framed)).toContain("frame-ancestors 'self' https://rp.example");
    expect(framed['x-frame-options']).toBeUndefined();
  });
});
