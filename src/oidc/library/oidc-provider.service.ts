import { Inject, Injectable, Logger } from '@nestjs/common';
import type Provider from 'oidc-provider';
import type { Account, KoaContextWithOIDC } from 'oidc-provider';
import { Clock } from '../../common/clock/clock.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import { sessionsConfig, type SessionsConfig } from '../../config/sessions.config.js';
import { EidProviderRegistry } from '../../eid-providers/eid-provider.registry.js';
import { SigningKeysService } from '../../tokens/signing-keys.service.js';
import { IpBlocksService } from '../../protection/ip-blocks/ip-blocks.service.js';
import { oidcAdapterFactory } from './oidc-adapter.js';
import { countClientAuthFailures } from './oidc-client-auth-failures.js';
import { accountClaims, CLAIM, isAgeAccount, pairwiseSubject, PERSON_SUBJECT_KEY, personKeyOf, personSubject } from './oidc-claims.js';
import { OidcClientCache } from '../clients/oidc-client-cache.js';
import { clientExtra, oidcConfiguration } from './oidc-configuration.js';
import { loadOidcLibrary, oidcErrors } from './oidc-library.js';
import { accountOfGrant, grantKeepsAccount } from './oidc-login-grant.js';
import { OidcLoginRecords, type StoredAccount } from '../login/oidc-login-records.js';
import { OidcModelStore } from './oidc-model.store.js';
import { OidcTeamAccess } from '../oidc-team-access.js';

/** What the CIBA front gives the provider (docs/oidc.md, "CIBA"): its feature hooks and a per-instance setup. */
export interface CibaHooks {
  feature(): Record<string, unknown>;
  ttl(ctx: unknown): number;
  configure(provider: Provider): void;
}

// A replica notices a rotated signing key within this long; the old key stays published far longer.
const KEY_CHECK_INTERVAL_MS = 60_000;

/**
 * The one oidc-provider instance, rebuilt when the service's signing key rotates (the library takes
 * its keys at construction). All its state is in the database, so a rebuild loses nothing.
 */
@Injectable()
export class OidcProviderService {
  private readonly logger = new Logger('OidcProvider');
  private current: { kid: string; provider: Provider; checkedAt: number } | undefined;
  private building: Promise<Provider> | undefined;
  private readonly subjectKey: Buffer;
  private ciba: CibaHooks | undefined;

  constructor(
    private readonly signingKeys: SigningKeysService,
    private readonly clients: OidcClientCache,
    private readonly models: OidcModelStore,
    private readonly records: OidcLoginRecords,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
    private readonly registry: EidProviderRegistry,
    private readonly teamAccess: OidcTeamAccess,
    private readonly ipBlocks: IpBlocksService,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
    @Inject(sessionsConfig.KEY) private readonly sessions: SessionsConfig,
  ) {
    this.subjectKey = cipher.deriveKey(PERSON_SUBJECT_KEY);
  }

  get issuer(): string {
    return `${this.server.publicBaseUrl}/oidc`;
  }

  /** The key that makes a person's stable subject (docs/oidc.md, "Subjects"). */
  get personSubjectKey(): Buffer {
    return this.subjectKey;
  }

  /** Called once at start by the CIBA front, before the first provider is built. */
  useCiba(hooks: CibaHooks): void {
    this.ciba = hooks;
  }

  async provider(): Promise<Provider> {
    const now = this.clock.nowMs();
    if (this.current && now - this.current.checkedAt < KEY_CHECK_INTERVAL_MS) return this.current.provider;
    this.building ??= this.refresh(now).finally(() => (this.building = undefined));
    return this.building;
  }

  private async refresh(now: number): Promise<Provider> {
    const jwk = await this.signingKeys.activePrivateJwk();
    const current = this.current;
    if (current && current.kid === jwk.kid) {
      current.checkedAt = now;
      return current.provider;
    }
    const { default: OidcProvider } = await loadOidcLibrary();
    const provider = new OidcProvider(
      this.issuer,
      oidcConfiguration({
        signingJwk: jwk,
        cookieKey: this.cipher.deriveKey('oidc-cookies').toString('base64url'),
        acrValues: this.registry.acrValues(),
        businessClaims: this.registry.businessClaims(),
        adapter: oidcAdapterFactory({
          store: this.models,
          cipher: this.cipher,
          clock: this.clock,
          clients: this.clients,
        }),
        findAccount: (ctx, accountId, token) => this.findAccount(ctx, accountId, token),
        pairwiseIdentifier: (clientId, subject) => pairwiseSubject(this.subjectKey, clientId, subject),
        corsAllowed: (origin, redirectUris) => redirectUris.some((uri) => URL.parse(uri)?.origin === origin),
        piiRetentionSeconds: Math.floor(this.sessions.piiRetentionMs / 1000),
        ciba: this.ciba ? { feature: this.ciba.feature(), ttl: (ctx) => this.ciba!.ttl(ctx) } : undefined,
      }),
    );
    grantKeepsAccount(provider);
    provider.use(countClientAuthFailures((ip) => this.ipBlocks.recordFailure(ip)));
    this.ciba?.configure(provider);
    // The mount sets X-Forwarded-* from PUBLIC_BASE_URL, so every URL the provider writes starts with the issuer.
    provider.proxy = true;
    provider.on('server_error', (_ctx: unknown, error: Error) => this.logger.error({ err: error.message }, 'OpenID Provider error'));
    this.current = { kid: jwk.kid!, provider, checkedAt: now };
    return provider;
  }

  /**
   * The account is the person (accountId = their stable subject); the claims are those of the e-ID
   * login its grant carries, for the client that asked for it only (docs/oidc.md, "State").
   */
  private async findAccount(ctx: KoaContextWithOIDC, accountId: string, token?: { grantId?: string }): Promise<Account | undefined> {
    // Without a token (the authorization endpoint checking its session) only the subject is needed.
    if (!token?.grantId) return { accountId, claims: () => ({ sub: accountId }) };
    const grantId = token.grantId;
    // Every token and userinfo request of a login passes here: a lapsed team's client stops (docs/oidc.md, "Plans").
    const client = ctx.oidc.client!;
    const refusal = await this.teamAccess.refusalOfClient(client.clientId, String(clientExtra(client, 'eidgw_team_id')));
    if (refusal) throw new (oidcErrors().UnauthorizedClient)(refusal);
    // The token endpoint has read the grant already: an unknown account refuses the grant here.
    if (ctx.oidc.grant) {
      const account = await this.accountOf(ctx, grantId, accountId);
      return account && { accountId, claims: (use) => accountClaimsFor(account, use) };
    }
    // Userinfo reads the grant after this call and before it asks for the claims.
    return {
      accountId,
      claims: async (use) => {
        const account = await this.accountOf(ctx, grantId, accountId);
        if (!account) throw new (oidcErrors().InvalidToken)('associated account not found');
        return accountClaimsFor(account, use);
      },
    };
  }

  /**
   * The accountId a login of this person gets at the client as it is registered now. The library
   * makes `sub` of a grant's accountId, and a pairwise client with CIBA is shown to it as public
   * with the pairwise value as accountId (docs/oidc.md, "CIBA"): a grant made before the client
   * turned CIBA on or off would give another `sub` (the cross-team one, turned on), so it stops.
   */
  private currentAccountId(ctx: KoaContextWithOIDC, account: StoredAccount): string {
    // An age login's subject is random (docs/age-verification.md): it is no person's.
    if (isAgeAccount(account)) return account.subject;
    const client = ctx.oidc.client!;
    const person = personSubject(this.subjectKey, String(clientExtra(client, 'eidgw_environment')), personKeyOf(account.user));
    const pairwiseByAccount = clientExtra(client, 'eidgw_subject_type') === 'pairwise' && client.subjectType !== 'pairwise';
    return pairwiseByAccount ? pairwiseSubject(this.subjectKey, client.clientId, person) : person;
  }

  /** The grant's account; a grant written before grants carried it has it in its own record. */
  private async accountOf(ctx: KoaContextWithOIDC, grantId: string, accountId: string): Promise<StoredAccount | undefined> {
    const grant = ctx.oidc.grant;
    const account = (grant?.jti === grantId ? accountOfGrant(grant) : undefined) ?? (await this.records.findLegacyAccount(grantId));
    if (account?.clientId !== ctx.oidc.client?.clientId || account?.subject !== accountId) return undefined;
    return accountId === this.currentAccountId(ctx, account) ? account : undefined;
  }
}

function accountClaimsFor(account: StoredAccount, use: string) {
  const claims = accountClaims(account, account.personalNumberClaim);
  // The signature extension: a signature is delivered in the id token, never from userinfo (docs/oidc.md, "Signing").
  if (use === 'userinfo') delete claims[CLAIM.userSignature];
  return claims as Awaited<ReturnType<Account['claims']>>;
}
