import { isIP } from 'node:net';
import type { OidcClient } from './oidc-client.js';

export interface FieldProblem {
  pointer: string;
  detail: string;
}

const LOOPBACK_NAMES = new Set(['localhost']);

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (LOOPBACK_NAMES.has(host) || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** A redirect URI as docs/oidc.md says: absolute, no fragment, https (http for loopback outside production). */
export function redirectUriProblem(uri: string, production: boolean): string | undefined {
  const url = URL.parse(uri);
  if (!url) return 'must be an absolute URL';
  if (url.hash) return 'must not have a fragment';
  if (url.username || url.password) return 'must not carry credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && !production && isLoopback(url.hostname)) return undefined;
  return production ? 'must be https' : 'must be https (http only for localhost or a loopback address)';
}

/** The rules across fields of a registration (after a change is applied). */
export function clientProblems(client: OidcClient, production: boolean): FieldProblem[] {
  const problems: FieldProblem[] = [];
  client.redirectUris.forEach((uri, i) => {
    const problem = redirectUriProblem(uri, production);
    if (problem) problems.push({ pointer: `/redirectUris/${i}`, detail: problem });
  });
  client.postLogoutRedirectUris.forEach((uri, i) => {
    const problem = redirectUriProblem(uri, production);
    if (problem) problems.push({ pointer: `/postLogoutRedirectUris/${i}`, detail: problem });
  });
  if (client.tokenEndpointAuthMethod === 'private_key_jwt' && Boolean(client.jwks) === Boolean(client.jwksUri)) {
    problems.push({ pointer: '/jwks', detail: 'private_key_jwt needs exactly one of jwks and jwksUri' });
  }
  if (client.jwks && !Array.isArray((client.jwks as { keys?: unknown }).keys))
    problems.push({ pointer: '/jwks', detail: 'must be a JWK Set ({"keys": [...]})' });
  if (client.jwksUri && URL.parse(client.jwksUri)?.protocol !== 'https:' && production)
    problems.push({ pointer: '/jwksUri', detail: 'must be https' });
  if (client.jwksUri && !URL.parse(client.jwksUri)) problems.push({ pointer: '/jwksUri', detail: 'must be an absolute URL' });
  if (client.backchannelTokenDeliveryMode === 'ping' && !client.backchannelClientNotificationEndpoint) {
    problems.push({ pointer: '/backchannelClientNotificationEndpoint', detail: 'ping mode needs a notification endpoint' });
  }
  const endpoint = client.backchannelClientNotificationEndpoint;
  if (endpoint && URL.parse(endpoint)?.protocol !== 'https:' && (production || URL.parse(endpoint)?.protocol !== 'http:')) {
    problems.push({ pointer: '/backchannelClientNotificationEndpoint', detail: 'must be https' });
  }
  if (client.backchannelTokenDeliveryMode && client.tokenEndpointAuthMethod === 'none') {
    problems.push({ pointer: '/backchannelTokenDeliveryMode', detail: 'CIBA is for confidential clients only' });
  }
  return problems;
}
