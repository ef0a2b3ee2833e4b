import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthorizationDetail, InteractionResults } from 'oidc-provider';
import { serverConfig, type ServerConfig } from '../config/server.config.js';
import type { EidOperation } from '../eid-providers/eid-provider.js';
import { EidProviderRegistry } from '../eid-providers/eid-provider.registry.js';
import type { ApiKeyPrincipal } from '../common/access/principal.js';
import { SessionReader } from '../sessions/session-reader.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { TeamsService } from '../teams/teams.service.js';
import { accountIdFor } from './ciba/ciba-subject.js';
import { amrOf, clientMayUse } from './oidc-acr.js';
import { personKeyOf, personSubject } from './oidc-claims.js';
import type { OidcClient } from './oidc-client.js';
import { OidcClientStore } from './oidc-client.store.js';
import { OIDC_TTL } from './oidc-configuration.js';
import { loginDeviceOf } from './oidc-login-device.js';
import { saveLoginGrant, type LoginGrant } from './oidc-login-grant.js';
import { loginStartFor } from './oidc-login-start.js';
import { OidcLoginRecords, type InteractionLogin } from './oidc-login-records.js';
import { clientPrincipal } from './oidc-principal.js';
import { OidcProviderService } from './oidc-provider.service.js';

const OUTCOME_NAMES: Record<EidOperation, string> = { auth: 'login', sign: 'signature', payment: 'payment' };

type Details = Awaited<ReturnType<Awaited<ReturnType<OidcProviderService['provider']>>['interactionDetails']>>;

export type PageState =
  | { kind: 'page'; client: OidcClient; login: InteractionLogin; uiLocales: unknown }
  /** The provider signs the person in at its own site in this browser (an upstream): go there at once. */
  | { kind: 'redirect'; location: string }
  | { kind: 'finished' };

/** The login interaction (docs/oidc.md, "The login page"): an e-ID session of the same engine as the API's. */
@Injectable()
export class OidcInteractionsService {
  constructor(
    private readonly oidc: OidcProviderService,
    private readonly clients: OidcClientStore,
    private readonly records: OidcLoginRecords,
    private readonly sessions: SessionsService,
    private readonly reader: SessionReader,
    private readonly teams: TeamsService,
    private readonly registry: EidProviderRegistry,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
  ) {}

  /** The page's session, started on the first visit and found again on a reload or the app's return. */
  async open(request: FastifyRequest, reply: FastifyReply): Promise<PageState> {
    const details = await this.details(request, reply);
    const client = await this.clientOf(details);
    const existing = await this.records.findLogin(details.uid);
    if (existing) return { kind: 'page', client, login: existing, uiLocales: details.params.ui_locales };

    const pushedRequest = Boolean((details as { parJti?: string }).parJti);
    const start = loginStartFor({
      params: details.params,
      pushed: (param) => pushedRequest || (details.trusted ?? []).includes(param),
      usable: (operation) => clientMayUse(client, this.registry.openIdMethods(client.environment, operation)),
      forAcr: (acr) => this.registry.forAcr(acr, client.environment),
    });
    if ('refused' in start) return this.finish(request, reply, start.refused);
    const device = loginDeviceOf(request, this.server.publicBaseUrl);
    if (device.setCookie) void reply.header('set-cookie', device.setCookie);
    const started = await this.sessions.start(
      await this.principalOf(client),
      start.method.provider,
      {
        ...start.body,
        endUserIp: request.ip,
        web: device.web,
        metadata: { oidcClientId: client.clientId },
        // The e-ID app brings a phone's browser back here (docs/same-device.md).
        returnUrl: `${this.server.publicBaseUrl}/oidc/interaction/${details.uid}`,
      },
      { operation: start.operation, channel: 'app' },
      // What the acr claims of the device is what the page can show (docs/oidc.md, "acr values").
      start.method.device,
    );
    const kioskToken = started.kioskUrl ? (new URL(started.kioskUrl).hash.match(/[#&]t=([^&]+)/)?.[1] ?? null) : null;
    const login: InteractionLogin = { sessionId: started.sessionId, ...start.method, kioskToken, operation: start.operation };
    await this.records.saveLogin(details.uid, login, OIDC_TTL.Interaction);
    // Its callback brings the browser back here (the returnUrl), and the page then sees the session's end.
    if (started.launchUrl && this.registry.find(login.provider)?.openId?.redirectsBrowser)
      return { kind: 'redirect', location: started.launchUrl };
    return { kind: 'page', client, login, uiLocales: details.params.ui_locales };
  }

  /** The session's outcome ends the interaction: a login for the client, or access_denied naming the hintCode. */
  async done(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const details = await this.details(request, reply);
    const login = await this.records.findLogin(details.uid);
    if (!login) return false;
    const client = await this.clientOf(details);
    const principal = await this.principalOf(client);
    const view = await this.sessions.poll(principal, login.sessionId);
    if (view.status === 'pending') return false;
    if (view.status !== 'complete' || !('user' in view) || !view.user) {
      const hintCode = 'hintCode' in view ? view.hintCode : undefined;
      await this.finish(request, reply, {
        error: 'access_denied',
        error_description: `The e-ID ${OUTCOME_NAMES[login.operation ?? 'auth']} did not complete (hintCode: ${hintCode ?? view.status})`,
      });
      return true;
    }
    const accountId = accountIdFor(
      client,
      this.oidc.personSubjectKey,
      personSubject(this.oidc.personSubjectKey, client.environment, personKeyOf(view.user)),
    );
    const scope = typeof details.params.scope === 'string' ? details.params.scope : 'openid';
    // The login's claims ride in its grant: every token of this login (and only of it) reads them.
    const grant = await saveLoginGrant(await this.oidc.provider(), {
      scope,
      claims: typeof details.params.claims === 'string' ? (JSON.parse(details.params.claims) as LoginGrant['claims']) : undefined,
      // A payment's details are granted as approved; the token response names them (docs/oidc.md, "Payment").
      rar:
        login.operation === 'payment' && typeof details.params.authorization_details === 'string'
          ? (JSON.parse(details.params.authorization_details) as AuthorizationDetail[])
          : undefined,
      account: {
        clientId: client.clientId,
        subject: accountId,
        user: view.user,
        txn: view.sessionId,
        resultToken: 'resultToken' in view ? view.resultToken : undefined,
        ...(login.operation === 'sign' ? { userSignature: await this.signatureOf(principal, view.sessionId) } : {}),
        acr: login.acr,
        personalNumberClaim: client.personalNumberClaim,
      },
    });
    const completedAt = 'completedAt' in view && view.completedAt ? Date.parse(view.completedAt) : Date.now();
    await this.finish(request, reply, {
      login: {
        accountId,
        acr: login.acr,
        amr: amrOf(this.registry.profileOf(login.provider), 'evidence' in view ? view.evidence : undefined),
        ts: Math.floor(completedAt / 1000),
      },
      consent: { grantId: grant.jti },
    });
    return true;
  }

  /** The cancel button: the e-ID session is cancelled and the client gets access_denied. */
  async cancel(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const details = await this.details(request, reply);
    const login = await this.records.findLogin(details.uid);
    if (login) {
      const client = await this.clientOf(details);
      // Already ended (the app cancelled first): the client is told the same.
      await this.sessions.cancel(await this.principalOf(client), login.sessionId).catch(() => undefined);
    }
    await this.finish(request, reply, {
      error: 'access_denied',
      error_description: 'The user cancelled the e-ID login (hintCode: cancelled)',
    });
  }

  /** The user's signature (base64 XML) from the session's evidence (docs/evidence.md); none when the provider gave none. */
  private async signatureOf(principal: ApiKeyPrincipal, sessionId: string): Promise<string | undefined> {
    const evidence = await this.reader.evidence(principal, sessionId).catch(() => undefined);
    return typeof evidence?.signature === 'string' ? evidence.signature : undefined;
  }

  private async details(request: FastifyRequest, reply: FastifyReply): Promise<Details> {
    const provider = await this.oidc.provider();
    return provider.interactionDetails(request.raw, reply.raw);
  }

  private async clientOf(details: Details): Promise<OidcClient> {
    const client = await this.clients.findByClientId(String(details.params.client_id));
    if (!client) throw new Error('The interaction names a client that no longer exists');
    return client;
  }

  private async principalOf(client: OidcClient) {
    return clientPrincipal(client, await this.teams.get(client.teamId));
  }

  private async finish(request: FastifyRequest, reply: FastifyReply, result: InteractionResults): Promise<PageState> {
    reply.hijack();
    const provider = await this.oidc.provider();
    await provider.interactionFinished(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
    return { kind: 'finished' };
  }
}
