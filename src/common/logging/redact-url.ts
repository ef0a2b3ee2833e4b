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

/** The URL with the value of every credential parameter replaced, whatever the spelling of its name. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
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
