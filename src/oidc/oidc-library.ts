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

/** Its OAuth error classes, for code that runs inside or after a provider OidcProviderService built (so the library is loaded). */
export function oidcErrors(): OidcLibrary['errors'] {
  if (!loaded) throw new Error('oidc-provider is used before OidcProviderService loaded it');
  return loaded.errors;
}
