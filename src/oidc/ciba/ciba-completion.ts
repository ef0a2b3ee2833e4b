import { Injectable, Logger } from '@nestjs/common';
import type Provider from 'oidc-provider';
import { oidcErrors } from '../library/oidc-library.js';
import { SessionsService } from '../../sessions/api/sessions.service.js';
import type { SessionView } from '../../sessions/session-view.js';
import { TeamsService } from '../../teams/teams.service.js';
import { OidcClientStore } from '../clients/oidc-client.store.js';
import { clientPrincipal } from '../oidc-principal.js';
import { OidcProviderService } from '../library/oidc-provider.service.js';
import { OidcSessionLogin } from '../oidc-session-login.js';
import { OidcTeamAccess } from '../oidc-team-access.js';
import { CibaRecords, type CibaLink } from './ciba-records.js';

/**
 * A backchannel request's end from its session's (docs/oidc.md, "CIBA"): a grant with the
 * login's claims, or access_denied / expired_token naming the hintCode. Called by the session-end
 * listener and by the token endpoint, whichever comes first; the second finds the request settled.
 */
@Injectable()
export class CibaCompletion {
  private readonly logger = new Logger(CibaCompletion.name);
  // One settlement per request in this process; across replicas a lease in the database (CibaRecords).
  private readonly inFlight = new Map<string, Promise<SessionView | undefined>>();

  constructor(
    private readonly oidc: OidcProviderService,
    private readonly clients: OidcClientStore,
    private readonly teams: TeamsService,
    private readonly sessions: SessionsService,
    private readonly links: CibaRecords,
    private readonly sessionLogin: OidcSessionLogin,
    private readonly teamAccess: OidcTeamAccess,
  ) {}

  /** The session as it now stands (collected if due); the request settled if the session has ended. */
  settleIfEnded(link: CibaLink): Promise<SessionView | undefined> {
    const running = this.inFlight.get(link.authReqId);
    if (running) return running;
    const settling = this.settle(link).finally(() => this.inFlight.delete(link.authReqId));
    this.inFlight.set(link.authReqId, settling);
    return settling;
  }

  private async settle(link: CibaLink): Promise<SessionView | undefined> {
    const client = await this.clients.findByClientId(link.clientId);
    if (!client) return undefined;
    const principal = clientPrincipal(client, await this.teams.get(client.teamId));
    const view = await this.sessions.poll(principal, link.sessionId);
    if (view.status === 'pending') return view;
    const provider = await this.oidc.provider();
    const request = await provider.BackchannelAuthenticationRequest.find(link.authReqId, { ignoreExpiration: true });
    if (!request || request.grantId || request.error) return view;
    // Another replica may be settling it: it wins, and this poll finds it settled next time.
    if (!(await this.links.claimSettlement(link.authReqId))) return view;
    const refusal = await this.teamAccess.refusalOf(client.teamId);
    if (refusal) {
      await refuse(provider, request, new (oidcErrors().UnauthorizedClient)(refusal));
      return view;
    }

    if (view.status !== 'complete' || !('user' in view) || !view.user) {
      const hintCode = ('hintCode' in view ? view.hintCode : undefined) ?? view.status;
      const error =
        hintCode === 'expiredTransaction'
          ? new (oidcErrors().ExpiredToken)(`The e-ID session expired (hintCode: ${hintCode})`)
          : new (oidcErrors().AccessDenied)(
              `The e-ID ${link.operation === 'sign' ? 'signature' : 'login'} did not complete (hintCode: ${hintCode})`,
            );
      await refuse(provider, request, error);
      return view;
    }
    // As on the login page: an identity whose evidence the service's own check failed is not vouched for (docs/evidence.md).
    if ('evidence' in view && view.evidence?.verification?.status === 'failed') {
      await refuse(
        provider,
        request,
        new (oidcErrors().AccessDenied)("The service's check of the e-ID's evidence failed (evidence verification: failed)"),
      );
      return view;
    }
    const proof = { user: view.user };
    const accountId = this.sessionLogin.subjectOf(client, proof);
    if (accountId !== request.accountId) {
      // The provider was asked for this person only; anything else is refused, never issued.
      this.logger.error({ sessionId: link.sessionId }, 'A CIBA session completed for another person than the login_hint');
      await refuse(provider, request, new (oidcErrors().AccessDenied)('The e-ID login did not complete (hintCode: providerError)'));
      return view;
    }
    const { grant, amr, authTime } = await this.sessionLogin.grant(provider, {
      client,
      principal,
      view,
      proof,
      subject: accountId,
      acr: link.acr,
      eidProvider: link.provider,
      operation: link.operation,
      scope: request.scope ?? 'openid',
      claims: request.claims,
    });
    await provider.backchannelResult(request, grant, { acr: link.acr, amr, authTime });
    return view;
  }
}

type BackchannelRequest = InstanceType<Provider['BackchannelAuthenticationRequest']>;

/**
 * Settles the request with an error the token endpoint then answers. The library saves the
 * description under a name its model does not keep (`error_description`, read back as
 * `errorDescription`), so it is set under the kept name too.
 */
async function refuse(provider: Provider, request: BackchannelRequest, error: InstanceType<ReturnType<typeof oidcErrors>['AccessDenied']>) {
  Reflect.set(request, 'errorDescription', error.error_description);
  await provider.backchannelResult(request, error);
}
