import { escapeHtml, htmlDocument } from '../../common/html/html-page.js';

/**
 * A page for a request the front will not answer at an ACS (an unknown SP, an unregistered ACS, a
 * malformed message): the reason, for the person to pass on; it never echoes the message.
 */
export function samlProblemPage(message: string): string {
  return htmlDocument({
    language: 'sv',
    title: 'Inloggning / Login',
    head: '<link rel="stylesheet" href="/oidc/interaction-assets/login.css">\n',
    body: `<main class="login"><p class="problem">${escapeHtml(message)}</p></main>`,
  });
}
