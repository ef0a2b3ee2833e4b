import type Provider from 'oidc-provider';
import type { AuthorizationDetail, Grant } from 'oidc-provider';
import type { StoredAccount } from '../login/oidc-login-records.js';

// The grant's own property for what the login proved: saved in its encrypted payload (docs/oidc.md, "State").
const ACCOUNT = 'eidgwAccount';

/**
 * Lets the provider's Grant keep the login's account in its payload: oidc-provider saves only the
 * properties its model lists. Called once per provider instance, before its first grant is used.
 */
export function grantKeepsAccount(provider: Provider): void {
  const listed = provider.Grant.IN_PAYLOAD;
  Object.defineProperty(provider.Grant, 'IN_PAYLOAD', { get: () => [...listed, ACCOUNT], configurable: true });
}

export interface LoginGrant {
  scope: string;
  /** The request's `claims` parameter: the claims it names are granted beside the scopes' claims. */
  claims?: { id_token?: object; userinfo?: object };
  /** A payment's authorization details, granted as approved (docs/oidc.md, "Payment"). */
  rar?: AuthorizationDetail[];
  account: StoredAccount;
}

/** The grant of one finished e-ID login with what it proved: the login page, CIBA and the bench write it alike. */
export async function saveLoginGrant(provider: Provider, login: LoginGrant): Promise<Grant> {
  const grant = new provider.Grant({ accountId: login.account.subject, clientId: login.account.clientId });
  grant.addOIDCScope(login.scope);
  for (const detail of login.rar ?? []) grant.addRar(detail);
  const requested = [...Object.keys(login.claims?.id_token ?? {}), ...Object.keys(login.claims?.userinfo ?? {})];
  if (requested.length) grant.addOIDCClaims(requested);
  Reflect.set(grant, ACCOUNT, login.account);
  await grant.save();
  return grant;
}

/** The account a grant carries; undefined for a grant written before the account moved into it. */
export function accountOfGrant(grant: Grant): StoredAccount | undefined {
  return Reflect.get(grant, ACCOUNT) as StoredAccount | undefined;
}
