type OidcLibrary = typeof import('oidc-provider');

let loaded: OidcLibrary | undefined;

/**
 * oidc-provider (and Koa under it), imported when the first OpenID Provider is built rather than at
 * start-up: about half a second of CPU that a process serving no /oidc request never pays
 * (docs/performance.md, "Start-up").
 */
export async function loadOidcLibrary(): Promise<OidcLibrary> {
  loaded ??= await import('oidc-provider');
  return loaded;
}

/** The library, for code that runs while or after OidcProviderService builds a provider (so it is loaded). */
export function oidcLibrary(): OidcLibrary {
  if (!loaded) throw new Error('oidc-provider is used before OidcProviderService loaded it');
  return loaded;
}

/** Its OAuth error classes (see oidcLibrary). */
export const oidcErrors = (): OidcLibrary['errors'] => oidcLibrary().errors;
