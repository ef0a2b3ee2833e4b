import { escapeHtml } from '../../oidc/login/oidc-login-page.js';

/**
 * A page for a request the front will not answer at an ACS (an unknown SP, an unregistered ACS, a
 * malformed message): the reason, for the person to pass on; it never echoes the message.
 */
export function samlProblemPage(message: string): string {
  return `<!doctype html>
<html lang="sv">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow">
<title>Inloggning / Login</title><link rel="stylesheet" href="/oidc/interaction-assets/login.css"></head>
<body><main class="login"><p class="problem">${escapeHtml(message)}</p></main></body>
</html>
`;
}
