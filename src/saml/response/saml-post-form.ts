import { escapeHtml, htmlDocument, pageHeaders, SELF } from '../../common/html/html-page.js';

/**
 * HTTP-POST binding: a form the browser posts to the SP, submitted by our own script (the page's CSP
 * allows no inline script), with a button where scripts do not run.
 */
export function postFormPage(action: string, fields: Record<string, string | undefined>): string {
  const inputs = Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  return htmlDocument({
    language: 'sv',
    title: '…',
    head: '<script src="/saml/assets/post.js" defer></script>\n',
    body: `<form method="post" action="${escapeHtml(action)}" data-saml-post>
${inputs}
<noscript><button type="submit">Fortsätt / Continue</button></noscript>
</form>`,
  });
}

/** The form's page may post to the SP's ACS, and nowhere else. */
export const postFormHeaders = (action: string): Record<string, string> =>
  pageHeaders({ allow: { 'script-src': [SELF] }, formAction: [new URL(action).origin] });
