import { escapeHtml } from '../../oidc/login/oidc-login-page.js';

/**
 * HTTP-POST binding: a form the browser posts to the SP, submitted by our own script (the page's CSP
 * allows no inline script), with a button where scripts do not run.
 */
export function postFormPage(action: string, fields: Record<string, string | undefined>): string {
  const inputs = Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  return `<!doctype html>
<html lang="sv">
<head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow"><title>…</title>
<script src="/saml/assets/post.js" defer></script></head>
<body>
<form method="post" action="${escapeHtml(action)}" data-saml-post>
${inputs}
<noscript><button type="submit">Fortsätt / Continue</button></noscript>
</form>
</body>
</html>
`;
}

/** The form's page may post to the SP's ACS, and nowhere else. */
export const postFormHeaders = (action: string): Record<string, string> => ({
  'content-security-policy': `default-src 'none'; script-src 'self'; form-action ${new URL(action).origin}; base-uri 'none'; frame-ancestors 'none'`,
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
});
