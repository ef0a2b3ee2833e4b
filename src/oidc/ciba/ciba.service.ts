import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Client, KoaContextWithOIDC } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import { ValidationProblemException } from '../../common/problem-details/validation-problem.exception.js';
import { sessionsConfig, type SessionsConfig } from '../../config/sessions.config.js';
import type { CibaFace } from '../../eid-providers/eid-provider.js';
import { EidProviderRegistry } from '../../eid-providers/eid-provider.registry.js';
import { SessionEndListeners } from '../../sessions/settlement/session-end-listeners.js';
import { SessionsService } from '../../sessions/api/sessions.service.js';
import type { Session } from '../../sessions/session.entity.js';
import { TeamsService } from '../../teams/teams.service.js';
import { AGE_ACR, AGE_SCOPES } from '../library/oidc-claims.js';
import { oidcErrors } from '../library/oidc-library.js';
import type { OidcClient } from '../clients/oidc-client.js';
import { OidcClientStore } from '../clients/oidc-client.store.js';
import { clientPrincipal } from '../oidc-principal.js';
import { OidcProviderService, type CibaHooks } from '../library/oidc-provider.service.js';
import { OidcSessionLogin } from '../oidc-session-login.js';
import { OidcTeamAccess } from '../oidc-team-access.js';
import { CibaCompletion } from './ciba-completion.js';
import { CibaPingSender } from './ciba-ping.js';
import { CibaRecords } from './ciba-records.js';
import {
  bindingMessageProblem,
  cibaExpirySeconds,
  cibaMethodFor,
  cibaPerson,
  CIBA_POLL_INTERVAL_S,
  type CibaMethod,
} from './ciba-request.js';
import { cibaTokenMiddleware } from './ciba-token-middleware.js';

type BackchannelRequest = InstanceType<Provider['BackchannelAuthenticationRequest']>;

/**
 * CIBA on the OpenID Provider (docs/oidc.md, "CIBA"): the library's hooks start a phone session (or a
 * Freja push) through the session engine; the session's end, whoever collects it, settles the request.
 */
@Injectable()
export class CibaService implements OnModuleInit, CibaHooks {
  constructor(
    private readonly oidc: OidcProviderService,
    private readonly clients: OidcClientStore,
    private readonly teams: TeamsService,
    private readonly registry: EidProviderRegistry,
    private readonly sessions: SessionsService,
    private readonly endListeners: SessionEndListeners,
    private readonly records: CibaRecords,
    private readonly completion: CibaCompletion,
    private readonly sessionLogin: OidcSessionLogin,
    private readonly ping: CibaPingSender,
    private readonly teamAccess: OidcTeamAccess,
    @Inject(sessionsConfig.KEY) private readonly sessionsConfig: SessionsConfig,
  ) {}

  onModuleInit(): void {
    this.oidc.useCiba(this);
    // The background collector ends phone sessions with nobody polling: ping clients learn it here.
    this.endListeners.add((session) => this.sessionEnded(session));
  }

  /** The feature's configuration for oidc-provider (its names). */
  feature() {
    return {
      enabled: true,
      deliveryModes: ['poll', 'ping'],
      processLoginHint: (ctx: KoaContextWithOIDC, loginHint: string) => this.accountIdOf(ctx, loginHint),
      processLoginHintToken: () => {
        throw new (oidcErrors().InvalidRequest)('login_hint_token is not supported; send the personal number as login_hint');
      },
      validateBindingMessage: (ctx: KoaContextWithOIDC, bindingMessage?: string) => {
        const problem = bindingMessageProblem(bindingMessage, ctx.oidc.params!.scope);
        if (problem) throw new (oidcErrors().InvalidBindingMessage)(problem);
        return Promise.resolve();
      },
      // Checked before the request is stored: the method must exist for this client.
      validateRequestContext: async (ctx: KoaContextWithOIDC) => {
        // CIBA names the person in login_hint: an age answer without the person is a browser login (docs/age-verification.md).
        const scope = ctx.oidc.params!.scope;
        const scopes = typeof scope === 'string' ? scope.split(' ') : [];
        const age = AGE_SCOPES.find((named) => scopes.includes(named));
        if (age) throw new (oidcErrors().InvalidScope)(`${age} is for the browser login with acr_values=${AGE_ACR}, not CIBA`, age);
        const client = await this.clientOf(ctx.oidc.client!.clientId);
        const refusal = await this.teamAccess.refusalOf(client.teamId);
        if (refusal) throw new (oidcErrors().UnauthorizedClient)(refusal);
        if (!this.methodOf(ctx, client))
          throw new (oidcErrors().InvalidRequest)('None of the requested acr_values is available to this client');
      },
      verifyUserCode: () => Promise.resolve(),
      triggerAuthenticationDevice: (ctx: KoaContextWithOIDC, request: BackchannelRequest) => this.trigger(ctx, request),
    };
  }

  /** The request's lifetime: requested_expiry, at most the session's (docs/oidc.md, "CIBA"). */
  ttl(ctx: KoaContextWithOIDC | undefined): number {
    return cibaExpirySeconds(ctx?.oidc?.params?.requested_expiry, Math.floor(this.sessionsConfig.sessionTtlMs / 1000));
  }

  /** Per provider instance: ping through our sender, and the token endpoint's CIBA answers. */
  configure(provider: Provider): void {
    const ping = (client: Client, request: BackchannelRequest) => this.sendPing(client.clientId, request);
    (provider.Client.prototype as unknown as { backchannelPing: unknown }).backchannelPing = function (
      this: Client,
      request: BackchannelRequest,
    ) {
      return ping(this, request);
    };
    provider.use(cibaTokenMiddleware({ records: this.records, settle: (link) => this.completion.settleIfEnded(link) }));
  }

  /** The registered endpoint (the library may hold its https form only), never waiting on the client. */
  private async sendPing(clientId: string, request: BackchannelRequest): Promise<void> {
    const client = await this.clients.findByClientId(clientId);
    const endpoint = client?.backchannelClientNotificationEndpoint;
    const token = request.params?.client_notification_token;
    if (client?.backchannelTokenDeliveryMode !== 'ping' || !endpoint || typeof token !== 'string' || !request.jti) return;
    this.ping.send({ endpoint, clientNotificationToken: token, authReqId: request.jti, until: expiryOf(request) });
  }

  private async accountIdOf(ctx: KoaContextWithOIDC, loginHint: string): Promise<string> {
    const client = await this.clientOf(ctx.oidc.client!.clientId);
    const face = this.cibaFaceOf(this.methodOf(ctx, client));
    const person = cibaPerson(loginHint, face);
    if (!person)
      throw new (oidcErrors().InvalidRequest)(
        face?.loginHint
          ? "login_hint must be the person's national identifier (or sub:ssn:<identifier>)"
          : 'login_hint must be a personal number (12 digits, or sub:ssn:<12 digits>)',
      );
    return this.sessionLogin.accountIdOf(client, person.personKey);
  }

  /** The CIBA face of the method's provider: how it reads a login_hint. */
  private cibaFaceOf(method: CibaMethod | undefined): CibaFace | undefined {
    return method ? this.registry.find(method.provider)?.openId?.ciba : undefined;
  }

  private async trigger(ctx: KoaContextWithOIDC, request: BackchannelRequest): Promise<void> {
    const client = await this.clientOf(ctx.oidc.client!.clientId);
    const method = this.methodOf(ctx, client)!;
    const params = ctx.oidc.params!;
    // The identifier the login_hint names (checked by accountIdOf before this runs).
    const identifier = cibaPerson(params.login_hint, this.cibaFaceOf(method))!.identifier;
    const text = typeof params.binding_message === 'string' && params.binding_message ? params.binding_message : undefined;
    const metadata = { oidcClientId: client.clientId };
    const body =
      method.channel === 'phone'
        ? {
            personalNumber: identifier,
            callInitiator: params.callInitiator === 'user' ? ('user' as const) : ('RP' as const),
            userVisibleData: text,
            metadata,
          }
        : { userInfoType: 'SSN' as const, userInfo: identifier, userVisibleData: text, metadata };
    const principal = clientPrincipal(client, await this.teams.get(client.teamId));
    const started = await this.sessions
      .start(principal, method.provider, body, { operation: method.operation, channel: method.channel })
      .catch((error: unknown) => {
        throw oauthErrorOf(error);
      });
    await this.records.save({
      ...method,
      authReqId: request.jti,
      sessionId: started.sessionId,
      clientId: client.clientId,
      expiresAt: expiryOf(request),
      lastPolledAt: null,
    });
    if (client.backchannelTokenDeliveryMode === 'poll') (ctx.body as Record<string, unknown>).interval = CIBA_POLL_INTERVAL_S;
  }

  private async sessionEnded(session: Session): Promise<void> {
    if (!session.metadata || typeof session.metadata.oidcClientId !== 'string') return;
    const link = await this.records.findBySession(session.id);
    if (link) await this.completion.settleIfEnded(link);
  }

  private methodOf(ctx: KoaContextWithOIDC, client: OidcClient) {
    // The preference without acr_values is the registry's, whatever order the client lists its providers in.
    const usable = this.registry.cibaMethods(client.environment).filter((p) => !client.providers || client.providers.includes(p.name));
    return cibaMethodFor(ctx.oidc.params!.acr_values, ctx.oidc.params!.scope, usable);
  }

  private async clientOf(clientId: string): Promise<OidcClient> {
    const client = await this.clients.findByClientId(clientId);
    if (!client) throw new (oidcErrors().InvalidClient)('client not found');
    return client;
  }
}

/** When the request expires (ms): its `exp` once stored, else its lifetime from now. */
function expiryOf(request: BackchannelRequest): number {
  return typeof request.exp === 'number' ? request.exp * 1000 : Date.now() + (request.expiration ?? 0) * 1000;
}

/** A session engine's refusal as an OAuth error: the provider's outage is temporary, the rest the request's fault. */
function oauthErrorOf(error: unknown): Error {
  if (error instanceof DomainException && error.code === 'provider_unavailable')
    return new (oidcErrors().TemporarilyUnavailable)(error.detail ?? 'The e-ID provider did not answer');
  if (error instanceof DomainException) return new (oidcErrors().InvalidRequest)(error.detail ?? error.code);
  if (error instanceof ValidationProblemException)
    return new (oidcErrors().InvalidRequest)(`The request does not fit the e-ID provider: ${error.errors[0]?.detail ?? 'invalid'}`);
  return error instanceof Error ? error : new Error(String(error));
}
