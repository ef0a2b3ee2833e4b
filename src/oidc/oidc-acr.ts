import type { AcrDevice, EidProvider } from '../eid-providers/eid-provider.js';
import type { AcrMethod, OpenIdProvider } from '../eid-providers/eid-provider.registry.js';
import type { OidcClient } from './clients/oidc-client.js';

/** How the login page shows a method: the QR, the app on this device, or both (docs/oidc.md, "acr values"). */
export type DeviceChoice = AcrDevice;

export interface LoginMethod {
  /** The acr the id token carries: the value that was asked for (an alias as itself). */
  acr: string;
  provider: string;
  device: DeviceChoice;
}

/**
 * The methods an authorization request leaves the person to choose among (docs/oidc.md, "The chooser"):
 * for each of its acr_values (in the client's order of preference) whose provider the client may use,
 * one per provider, the first acr naming it; without acr_values the default acr of every provider it may
 * use. One method is the login's; several are the chooser's; none: unmet_authentication_requirements.
 * The acr values are the providers' own (their OpenID face): this front keeps no list of them.
 */
export function loginMethodsFor(
  acrValues: unknown,
  usable: readonly OpenIdProvider[],
  forAcr: (acr: string) => AcrMethod | undefined,
): LoginMethod[] {
  const requested = typeof acrValues === 'string' ? acrValues.split(' ').filter(Boolean) : [];
  const methods: LoginMethod[] =
    requested.length === 0
      ? usable.flatMap((provider) => {
          const preferred = provider.openId.acrValues[0];
          return preferred ? [{ acr: preferred.acr, provider: provider.name, device: preferred.device }] : [];
        })
      : requested.flatMap((acr) => {
          const method = forAcr(acr);
          return method && usable.includes(method.provider) ? [{ acr, provider: method.provider.name, device: method.device }] : [];
        });
  // BankID asked for by two of its acrs is still one e-ID to choose.
  return methods.filter((method, at) => methods.findIndex((first) => first.provider === method.provider) === at);
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
