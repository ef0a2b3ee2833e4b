import type { AcrDevice, EidProvider } from '../eid-providers/eid-provider.js';
import type { AcrMethod, OpenIdProvider } from '../eid-providers/eid-provider.registry.js';
import type { OidcClient } from './oidc-client.js';

/** How the login page shows a method: the QR, the app on this device, or both (docs/oidc.md, "acr values"). */
export type DeviceChoice = AcrDevice;

export interface LoginMethod {
  /** The acr the id token carries: the value that was asked for (an alias as itself). */
  acr: string;
  provider: string;
  device: DeviceChoice;
}

/**
 * The method for an authorization request: the first of its acr_values (in the client's order of
 * preference) whose provider the client may use; without acr_values the default acr of the first
 * provider it may use. Undefined when none fits (the client then gets unmet_authentication_requirements).
 * The acr values are the providers' own (their OpenID face): this front keeps no list of them.
 */
export function loginMethodFor(
  acrValues: unknown,
  usable: readonly OpenIdProvider[],
  forAcr: (acr: string) => AcrMethod | undefined,
): LoginMethod | undefined {
  const requested = typeof acrValues === 'string' ? acrValues.split(' ').filter(Boolean) : [];
  if (requested.length === 0) {
    const provider = usable[0];
    const preferred = provider?.openId.acrValues[0];
    return preferred && { acr: preferred.acr, provider: provider.name, device: preferred.device };
  }
  for (const acr of requested) {
    const method = forAcr(acr);
    if (method && usable.includes(method.provider)) return { acr, provider: method.provider.name, device: method.device };
  }
  return undefined;
}

/** The providers of the list the client may use: all of them, or those its `providers` names, in its order. */
export function clientMayUse<T extends { name: string }>(client: Pick<OidcClient, 'providers'>, offered: readonly T[]): T[] {
  if (!client.providers) return [...offered];
  return client.providers.flatMap((name) => offered.filter((provider) => provider.name === name));
}

/** The id token's amr, as the session's provider states it (an upstream's own); undefined when it states none. */
export function amrOf(provider: EidProvider | null, evidence: Readonly<Record<string, unknown>> | undefined): string[] | undefined {
  const amr = provider?.openId?.amr(evidence) ?? (provider ? [provider.name] : []);
  return amr.length ? amr : undefined;
}
