// Query parameters that carry credentials (docs/security.md: `?key=` is accepted for experiments; the
// same-device return's nonce proves the browser came back from the app, docs/same-device.md).
const SECRET_PARAMS = new Set(['key', 'api_key', 'token', 't', 'eidgw_nonce']);

/** A parameter name as the query parser reads it: percent-decoded, `+` as a space (`?%6Bey=` is `key`). */
function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

// The login fronts' queries carry personal data and one-time codes (login_hint, id_token_hint, a
// request object, an upstream's code and state, a SAML message with its PrincipalSelection): their
// lines keep the path only (docs/oidc.md, "Logs"; docs/saml.md).
const PATHS_WITHOUT_QUERY = ['/oidc', '/upstream', '/saml'];
const withoutQuery = (path: string) => PATHS_WITHOUT_QUERY.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/**
 * The URL with the value of every credential parameter replaced, whatever the spelling of its name;
 * on the OpenID fronts, with the whole query replaced.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  if (withoutQuery(url.slice(0, queryStart).toLowerCase())) return `${url.slice(0, queryStart)}?[redacted]`;
  const pairs = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const separator = pair.indexOf('=');
      const name = separator === -1 ? pair : pair.slice(0, separator);
      return SECRET_PARAMS.has(decodedName(name)) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, queryStart)}?${pairs.join('&')}`;
}
