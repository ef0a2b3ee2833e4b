// The OpenID front for an e2e file (docs/oidc.md): useFront (front.ts), and relying parties registered
// through the management API, each with openid-client's Configuration from discovery, as a real RP has it:
//
//   const { e2e, issuer, redirectUri, confidentialClient } = useOidcFront({ env: { PROVIDERS: 'simulator,bankid' } });
//   it('should …', async () => {
//     const { registered, config } = await confidentialClient({ maxRisk: 'low' });
//     const url = client.buildAuthorizationUrl(config, { redirect_uri: redirectUri(), scope: 'openid', state });
//
// A client is the e2e team's unless a member of another team registers it (`by`, teamOfItsOwn()). A file
// whose app is booted for something else (an upstream provider's own suite) takes the relying parties
// alone: oidcRelyingParties(e2e).
import type * as client from 'openid-client';
import type { E2eApp } from './e2e.js';
import { type Front, type FrontOptions, useFront } from './front.js';
import { discover } from './oidc-rp.js';
import { memberOf, type TeamMember } from './team-member.js';

/** The management API's answer to a registration: the secret is there this once. */
export interface RegisteredClient {
  id: string;
  clientId: string;
  clientSecret: string | null;
  [field: string]: unknown;
}

export interface RelyingParty {
  registered: RegisteredClient;
  config: client.Configuration;
}

export interface OidcRelyingParties {
  /** The issuer, `<origin>/oidc`. */
  issuer: () => string;
  /** The redirect URI clients register by default: on the service's origin, under /rp/, where CookieBrowser stops. */
  redirectUri: () => string;
  /** Registers a client (by default named "Test RP", with redirectUri()); the answer must be 201. */
  register: (body?: Record<string, unknown>, by?: TeamMember) => Promise<RegisteredClient>;
  /** Registers a client that authenticates with its secret, and discovers the issuer as it. */
  confidentialClient: (body?: Record<string, unknown>, by?: TeamMember) => Promise<RelyingParty>;
}

export type OidcFront = Front & OidcRelyingParties;

export function useOidcFront(options: FrontOptions = {}): OidcFront {
  const front = useFront(options);
  return { ...front, ...oidcRelyingParties(front.e2e, front.member) };
}

/** Relying parties of an app that listens (`listen`) and has a team (`withKey`); `member` registers them by default. */
export function oidcRelyingParties(e2e: E2eApp, member?: () => Promise<TeamMember>): OidcRelyingParties {
  let own: Promise<TeamMember> | undefined;
  const owner = member ?? (() => (own ??= memberOf(e2e.app, e2e.team)));
  const issuer = () => `${e2e.baseUrl}/oidc`;
  const redirectUri = () => `${e2e.baseUrl}/rp/callback`;
  const register = async (body: Record<string, unknown> = {}, by?: TeamMember) => {
    const { bearer } = by ?? (await owner());
    const created = await e2e.http
      .post('/api/v1/oidc-clients')
      .set('authorization', bearer)
      .send({ name: 'Test RP', redirectUris: [redirectUri()], ...body })
      .expect(201);
    return created.body as RegisteredClient;
  };
  const confidentialClient = async (body: Record<string, unknown> = {}, by?: TeamMember) => {
    const registered = await register(body, by);
    return { registered, config: await discover(issuer(), registered.clientId, registered.clientSecret!) };
  };
  return { issuer, redirectUri, register, confidentialClient };
}
