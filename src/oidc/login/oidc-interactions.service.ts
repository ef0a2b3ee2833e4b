import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthorizationDetail, InteractionResults } from 'oidc-provider';
import { chooseLanguage } from '../../common/languages/languages.js';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import type { EidOperation } from '../../eid-providers/eid-provider.js';
import { EidProviderRegistry } from '../../eid-providers/eid-provider.registry.js';
import { KioskLinks } from '../../kiosk-tokens/kiosk-links.js';
import { SessionReturnsService } from '../../sessions/api/session-returns.service.js';
import type { SessionView } from '../../sessions/session-view.js';
import { SessionsService } from '../../sessions/api/sessions.service.js';
import { TeamsService } from '../../teams/teams.service.js';
import { clientMayUse } from '../oidc-acr.js';
import { AGE_ACR } from '../library/oidc-claims.js';
import type { OidcClient } from '../clients/oidc-client.js';
import { OidcClientStore } from '../clients/oidc-client.store.js';
import { OIDC_TTL } from '../library/oidc-configuration.js';
import { loginDeviceOf } from './oidc-login-device.js';
import type { LoginGrant } from '../library/oidc-login-grant.js';
import { returnHostOf, type ChooserEntry } from './oidc-login-page.js';
import { loginStartFor, type LoginStart } from './oidc-login-start.js';
import { OidcLoginStartRate } from './oidc-login-start-rate.js';
import { OidcLoginRecords, type InteractionLogin, type LoginDevice } from './oidc-login-records.js';
import { clientPrincipal } from '../oidc-principal.js';
import { OidcProviderService } from '../library/oidc-provider.service.js';
import { OidcSessionLogin } from '../oidc-session-login.js';
import { OidcTeamAccess } from '../oidc-team-access.js';

const OUTCOME_NAMES: Record<EidOperation, string> = { auth: 'login', sign: 'signature', payment: 'payment', idcard: 'ID card' };

type Details = Awaited<ReturnType<Awaited<ReturnType<OidcProviderService['provider']>>['interactionDetails']>>;

interface PageBase {
  client: OidcClient;
  /** The host the browser is sent back to: the one name on the page the client cannot choose freely (docs/oidc.md). */
  redirectHost: string;
  uiLocales: unknown;
}

/**
 * Before the person picks an e-ID (`pick`, several fit), chooses a device (`choose`, the devices
 * offered), or the started login (`login`).
 */
export type PageState =
  | (PageBase & { kind: 'pick'; operation: EidOperation; entries: ChooserEntry[] })
  | (PageBase & { kind: 'choose'; operation: EidOperation; devices: LoginDevice[]; redirects: boolean })
  | (PageBase & { kind: 'login'; login: InteractionLogin })
  | { kind: 'finished' };

/** After the person's choice: the page again, or the provider's own site in this browser (an upstream). */
export type StartState = { kind: 'redirect'; location: string } | { kind: 'finished' };

type Started = Extract<LoginStart, { method: unknown }>;

/** After a pick: the page again (now the chosen e-ID's), or the client told the pick was not on offer. */
export type PickState = { kind: 'picked' } | { kind: 'finished' };

/** The login interaction (docs/oidc.md, "The login page"): an e-ID session of the same engine as the API's. */
@Injectable()
export class OidcInteractionsService {
  constructor(
    private readonly oidc: OidcProviderService,
    private readonly clients: OidcClientStore,
    private readonly records: OidcLoginRecords,
    private readonly sessions: SessionsService,
    private readonly teams: TeamsService,
    private readonly registry: EidProviderRegistry,
    private readonly returns: SessionReturnsService,
    private readonly kioskLinks: KioskLinks,
    private readonly startRate: OidcLoginStartRate,
    private readonly teamAccess: OidcTeamAccess,
    private readonly sessionLogin: OidcSessionLogin,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
  ) {}

  /**
   * The page: the login it started, or, before the person's gesture, the choice of device. A visit
   * starts nothing (docs/oidc.md, "The login page"): an e-ID order costs the team and the provider.
   */
  async open(request: FastifyRequest, reply: FastifyReply): Promise<PageState> {
    const details = await this.details(request, reply);
    const client = await this.clientOf(details);
    const refusal = await this.teamRefusal(client);
    if (refusal) return this.finish(request, reply, refusal);
    const base = { client, redirectHost: returnHostOf(details.params.redirect_uri), uiLocales: details.params.ui_locales };
    const login = await this.records.findLogin(details.uid);
    if (login) return { ...base, kind: 'login', login };
    const start = await this.loginStart(details, client);
    if ('refused' in start) return this.finish(request, reply, start.refused);
    if ('choices' in start) return { ...base, kind: 'pick', operation: start.operation, entries: this.chooserEntries(start.choices) };
    const redirects = this.redirectsBrowser(start.method.provider);
    return { ...base, kind: 'choose', operation: start.operation, devices: this.devicesFor(start), redirects };
  }

  /** The person's pick on the chooser: one of the e-IDs it offered, kept for the device choice and the start. */
  async pick(request: FastifyRequest, reply: FastifyReply, acr: unknown): Promise<PickState> {
    const details = await this.details(request, reply);
    const client = await this.clientOf(details);
    if (await this.records.findLogin(details.uid)) return { kind: 'picked' };
    const start = await this.loginStart(details, client);
    if ('refused' in start) return this.finish(request, reply, start.refused);
    const offered = 'choices' in start ? start.choices : [start.method];
    if (typeof acr !== 'string' || !offered.some((method) => method.acr === acr)) {
      throw new DomainException('validation_failed', 'Choose an e-ID this login offers.');
    }
    await this.records.savePick(details.uid, acr, OIDC_TTL.Interaction);
    return { kind: 'picked' };
  }

  /** The person's gesture starts the e-ID session, on the device they chose. */
  async start(request: FastifyRequest, reply: FastifyReply, device: unknown): Promise<StartState> {
    const details = await this.details(request, reply);
    const client = await this.clientOf(details);
    // A second tap (or a stale tab) finds the login it started.
    if (await this.records.findLogin(details.uid)) return { kind: 'finished' };
    const refusal = await this.teamRefusal(client);
    if (refusal) return this.finish(request, reply, refusal);
    const start = await this.loginStart(details, client);
    if ('refused' in start) return this.finish(request, reply, start.refused);
    if ('choices' in start) throw new DomainException('validation_failed', 'Choose an e-ID first.');
    const chosen = this.devicesFor(start).find((offered) => offered === device);
    if (!chosen) throw new DomainException('validation_failed', 'Choose a device this login offers.');
    const team = await this.teams.get(client.teamId);
    const retryAfter = this.startRate.take(client, team);
    if (retryAfter !== null) {
      return this.finish(request, reply, {
        error: 'temporarily_unavailable',
        error_description: `The client started more logins this minute than its plan allows; try again in ${retryAfter} s`,
      });
    }
    const bound = this.returnsToBrowser(start.method.provider);
    const redirects = this.redirectsBrowser(start.method.provider);
    // The e-ID app, or the upstream's callback, brings this browser back here (docs/same-device.md).
    const returns = redirects || (bound && chosen === 'this');
    const browser = loginDeviceOf(request, this.server.publicBaseUrl);
    if (browser.setCookie) void reply.header('set-cookie', browser.setCookie);
    const started = await this.sessions.start(
      clientPrincipal(client, team),
      start.method.provider,
      {
        ...start.body,
        endUserIp: request.ip,
        web: browser.web,
        metadata: { oidcClientId: client.clientId },
        ...(returns ? { returnUrl: `${this.server.publicBaseUrl}/oidc/interaction/${details.uid}` } : {}),
      },
      { operation: start.operation, channel: 'app' },
      // What the acr claims of the device is what the page can show (docs/oidc.md, "acr values").
      start.method.device,
    );
    const fullToken = started.kioskUrl ? (new URL(started.kioskUrl).hash.match(/[#&]t=([^&]+)/)?.[1] ?? null) : null;
    // On the QR the page's token shows the code but never gives the app link: a link sent to someone
    // else's phone would finish this browser's login with that person's e-ID.
    const kioskToken =
      fullToken && bound && chosen === 'other' ? this.kioskLinks.watchTokenFor(started.sessionId, new Date(started.expiresAt)) : fullToken;
    const login: InteractionLogin = {
      sessionId: started.sessionId,
      ...start.method,
      kioskToken,
      operation: start.operation,
      // An upstream's callback, like the app, must bring this browser back with the nonce (docs/oidc.md, "Same device").
      ...(bound || redirects ? { chosen } : {}),
      ...(start.body.ageOver ? { ageOver: start.body.ageOver } : {}),
    };
    await this.records.saveLogin(details.uid, login, OIDC_TTL.Interaction);
    if (redirects && started.launchUrl) {
      // The upstream speaks to the person in the page's language where it can (docs/oidc.md, "Languages").
      const location = new URL(started.launchUrl);
      location.searchParams.set('ui_locales', chooseLanguage(details.params.ui_locales, request.headers['accept-language']));
      return { kind: 'redirect', location: location.href };
    }
    return { kind: 'finished' };
  }

  /**
   * The e-ID app sent the browser back with the session's nonce (docs/same-device.md): this browser
   * holds the interaction's cookie, so the login may finish here. A wrong nonce counts toward
   * failing the session, as on the API.
   */
  async returned(request: FastifyRequest, reply: FastifyReply, nonce: string): Promise<void> {
    const details = await this.details(request, reply);
    const login = await this.records.findLogin(details.uid);
    if (login?.chosen !== 'this' || login.returned) return;
    const client = await this.clientOf(details);
    const confirmed = await this.returns
      .confirmReturn(await this.principalOf(client), login.sessionId, nonce)
      .then(() => true)
      .catch((error: unknown) => {
        if (error instanceof DomainException) return false;
        throw error;
      });
    if (confirmed) await this.records.saveLogin(details.uid, { ...login, returned: true }, OIDC_TTL.Interaction);
  }

  /** The session's outcome ends the interaction: a login for the client, or access_denied naming the hintCode. */
  async done(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const details = await this.details(request, reply);
    // Finished already (a second request before the browser went on): back to the same result, no second grant.
    if (details.result) {
      reply.hijack();
      reply.raw.writeHead(303, { location: details.returnTo, 'cache-control': 'no-store' }).end();
      return true;
    }
    const login = await this.records.findLogin(details.uid);
    if (!login) return false;
    const client = await this.clientOf(details);
    const teamRefusal = await this.teamRefusal(client);
    if (teamRefusal) {
      await this.finish(request, reply, teamRefusal);
      return true;
    }
    const principal = await this.principalOf(client);
    const view = await this.sessions.poll(principal, login.sessionId);
    if (view.status === 'pending') return false;
    const what = OUTCOME_NAMES[login.operation ?? 'auth'];
    const person = 'user' in view && view.user ? view.user : undefined;
    const age = 'ageVerification' in view && view.ageVerification ? view.ageVerification : undefined;
    if (view.status !== 'complete' || !(login.ageOver ? age : person)) {
      const hintCode = 'hintCode' in view ? view.hintCode : undefined;
      await this.deny(request, reply, `The e-ID ${what} did not complete (hintCode: ${hintCode ?? view.status})`);
      return true;
    }
    const refusal = this.refusalOf(login, view);
    if (refusal) {
      await this.deny(request, reply, refusal);
      return true;
    }
    const proof = age ? { ageVerification: age } : { user: person! };
    const acr = login.ageOver ? AGE_ACR : login.acr;
    const provider = await this.oidc.provider();
    const accountId = this.sessionLogin.subjectOf(client, proof);
    const { grant, amr, authTime } = await this.sessionLogin.grant(provider, {
      client,
      principal,
      view,
      proof,
      subject: accountId,
      acr,
      eidProvider: login.provider,
      operation: login.operation ?? 'auth',
      scope: typeof details.params.scope === 'string' ? details.params.scope : 'openid',
      claims: typeof details.params.claims === 'string' ? (JSON.parse(details.params.claims) as LoginGrant['claims']) : undefined,
      // A payment's details are granted as approved; the token response names them (docs/oidc.md, "Payment").
      rar:
        login.operation === 'payment' && typeof details.params.authorization_details === 'string'
          ? (JSON.parse(details.params.authorization_details) as AuthorizationDetail[])
          : undefined,
    });
    await this.finish(request, reply, {
      login: {
        accountId,
        acr,
        amr,
        ts: authTime,
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

  /**
   * Why a completed session gives the client no login: its app link was taken to another browser than
   * this one (docs/oidc.md, "Same device"); or the service's own check of the provider's evidence
   * failed (docs/evidence.md), so the identity is not one the service vouches for.
   */
  private refusalOf(login: InteractionLogin, view: SessionView): string | undefined {
    if (login.chosen === 'this' && !login.returned) {
      return `The e-ID app did not return to the browser that started the ${OUTCOME_NAMES[login.operation ?? 'auth']} (hintCode: returnNonceMismatch)`;
    }
    if ('evidence' in view && view.evidence?.verification?.status === 'failed') {
      return "The service's check of the e-ID's evidence failed (evidence verification: failed)";
    }
    return undefined;
  }

  private deny(request: FastifyRequest, reply: FastifyReply, description: string): Promise<{ kind: 'finished' }> {
    return this.finish(request, reply, { error: 'access_denied', error_description: description });
  }

  private async loginStart(details: Details, client: OidcClient): Promise<LoginStart> {
    return loginStartFor({
      params: details.params,
      channel: {
        pushed: Boolean((details as { parJti?: string }).parJti),
        signed: (param) => (details.trusted ?? []).includes(param),
        publicClient: client.tokenEndpointAuthMethod === 'none',
      },
      usable: (operation) => clientMayUse(client, this.registry.openIdMethods(client.environment, operation)),
      forAcr: (acr) => this.registry.forAcr(acr, client.environment),
      chosenAcr: await this.records.findPick(details.uid),
    });
  }

  private chooserEntries(choices: readonly { acr: string; provider: string }[]): ChooserEntry[] {
    return choices.map(({ acr, provider }) => {
      const face = this.registry.find(provider)?.openId;
      return { acr, name: face?.displayName ?? provider, ...(face?.logo ? { logo: face.logo } : {}) };
    });
  }

  /** The devices the acr allows; a QR-only acr (another-device) never gets the app link. */
  private devicesFor(start: Started): LoginDevice[] {
    if (this.redirectsBrowser(start.method.provider)) return ['this'];
    if (!this.returnsToBrowser(start.method.provider)) return ['other'];
    if (start.method.device === 'qr') return ['other'];
    if (start.method.device === 'same-device') return ['this'];
    return ['this', 'other'];
  }

  /** An upstream signs the person in at its own site, in this browser. */
  private redirectsBrowser(providerName: string): boolean {
    return Boolean(this.registry.find(providerName)?.openId?.redirectsBrowser);
  }

  /**
   * Whether the provider's app link is a secret apart from its QR, so that the app's return can bind
   * it to this browser (an animated QR: BankID, the simulator). A static QR is its own app link, and
   * its app sends nobody back: the page then shows it as it is (docs/oidc.md, "Same device").
   */
  private returnsToBrowser(providerName: string): boolean {
    return this.registry.find(providerName)?.qr?.kind === 'animated';
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

  /** A team without an active subscription or the plan's feature gets no login (docs/oidc.md, "Plans"). */
  private async teamRefusal(client: OidcClient): Promise<InteractionResults | undefined> {
    const reason = await this.teamAccess.refusalOf(client.teamId);
    return reason ? { error: 'unauthorized_client', error_description: reason } : undefined;
  }

  private async principalOf(client: OidcClient) {
    return clientPrincipal(client, await this.teams.get(client.teamId));
  }

  private async finish(request: FastifyRequest, reply: FastifyReply, result: InteractionResults): Promise<{ kind: 'finished' }> {
    reply.hijack();
    const provider = await this.oidc.provider();
    await provider.interactionFinished(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
    return { kind: 'finished' };
  }
}
