import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Clock } from '../../common/clock/clock.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import { pairwiseSubject, personKeyOf, personSubject, PERSON_SUBJECT_KEY } from '../../oidc/library/oidc-claims.js';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import { SessionReader } from '../../sessions/api/session-reader.js';
import { SessionReturnsService } from '../../sessions/api/session-returns.service.js';
import { SessionsService } from '../../sessions/api/sessions.service.js';
import { TeamsService } from '../../teams/teams.service.js';
import type { ApiKeyPrincipal } from '../../auth/principal.js';
import { releasedAttributes } from '../response/saml-attributes.js';
import { statusResponse, successResponse } from '../response/saml-response.js';
import { SamlIdentity } from '../saml-identity.js';
import { samlPrincipal } from '../saml-principal.js';
import { STATUS } from '../saml-protocol.js';
import type { SamlServiceProvider } from '../service-providers/saml-service-provider.js';
import { SamlServiceProviderStore } from '../service-providers/saml-service-provider.store.js';
import { problem, type SamlAnswer } from './saml-answer.js';
import { isLoginBrowser, loginAad, type SamlLogin } from './saml-login-record.js';
import { SamlLoginStore } from './saml-login.store.js';

// The e-ID's words for the person's own cancel: BankID's userCancel, and the login page's cancel button.
const CANCEL_HINTS = new Set(['userCancel', 'cancelled']);

export interface OpenLogin {
  uid: string;
  sp: SamlServiceProvider;
  login: SamlLogin;
  principal: ApiKeyPrincipal;
}

/** The login page of the SAML front and its two ends, the Response or the cancel (docs/saml.md, "The login"). */
@Injectable()
export class SamlLoginService {
  private readonly subjectKey: Buffer;

  constructor(
    private readonly identity: SamlIdentity,
    private readonly logins: SamlLoginStore,
    private readonly serviceProviders: SamlServiceProviderStore,
    private readonly sessions: SessionsService,
    private readonly reader: SessionReader,
    private readonly teams: TeamsService,
    private readonly clock: Clock,
    private readonly cipher: DataCipher,
    private readonly returns: SessionReturnsService,
  ) {
    // The OIDC front's key: a person's SAML NameID is the pairwise subject the OIDC front would give the SP.
    this.subjectKey = cipher.deriveKey(PERSON_SUBJECT_KEY);
  }

  /** The login of this uid, for this browser only; undefined: unknown, expired, answered or another browser. */
  async open(request: FastifyRequest, uid: string): Promise<OpenLogin | undefined> {
    const row = await this.logins.find(uid, this.clock.now());
    if (!row || row.answered) return undefined;
    const stored = this.cipher.decryptJson<SamlLogin | { pending: true }>(row.payloadEnc, loginAad(uid));
    if ('pending' in stored || !isLoginBrowser(request.headers.cookie, stored)) return undefined;
    const sp = await this.serviceProviders.findById(row.serviceProviderId);
    if (!sp) return undefined;
    return { uid, sp, login: stored, principal: samlPrincipal(sp, await this.teams.get(sp.teamId)) };
  }

  /**
   * An upstream's callback brought this browser (the login's cookie) back with the session's return
   * nonce (docs/saml.md, "The login"); a nonce that does not match is counted, as on the API.
   */
  async returned(open: OpenLogin, nonce: string): Promise<void> {
    if (!open.login.awaitsReturn || open.login.returned) return;
    const confirmed = await this.returns
      .confirmReturn(open.principal, open.login.sessionId, nonce)
      .then(() => true)
      .catch((error: unknown) => {
        if (error instanceof DomainException) return false;
        throw error;
      });
    if (confirmed) await this.logins.savePayload(open.uid, this.cipher.encryptJson({ ...open.login, returned: true }, loginAad(open.uid)));
  }

  /** The session's end: the Response, once; `pending` while the e-ID is still waiting. */
  async done(open: OpenLogin): Promise<SamlAnswer | 'pending'> {
    const view = await this.sessions.poll(open.principal, open.login.sessionId);
    if (view.status === 'pending') return 'pending';
    if (!(await this.logins.claimAnswer(open.uid))) return problem('This login has been answered already.');
    // The upstream's link was opened in another browser (a forwarded link): that person is not this login's.
    if (open.login.awaitsReturn && !open.login.returned)
      return this.status(open, STATUS.responder, STATUS.authnFailed, 'The e-ID sign-in did not return to the browser of this login.');
    if (view.status !== 'complete' || !('user' in view) || !view.user) {
      const hintCode = 'hintCode' in view ? view.hintCode : undefined;
      return hintCode && CANCEL_HINTS.has(hintCode)
        ? this.status(open, STATUS.responder, STATUS.cancel, 'The user cancelled.')
        : this.status(open, STATUS.responder, STATUS.authnFailed, `The e-ID did not complete (${hintCode ?? view.status}).`);
    }
    // The service's own check of the e-ID's evidence failed: not an identity it vouches for (docs/saml.md, "The Response").
    if ('evidence' in view && view.evidence?.verification?.status === 'failed')
      return this.status(open, STATUS.responder, STATUS.authnFailed, "The service's check of the e-ID's evidence failed.");
    const { sp, login } = open;
    const evidence = await this.reader.evidence(open.principal, login.sessionId).catch(() => undefined);
    const now = this.clock.now();
    const response = await successResponse({
      issuer: this.identity.entityId,
      key: this.identity.signingKey(),
      idp: this.identity.entity({ encryptAssertions: sp.encryptionCertificate !== null }),
      now,
      sp,
      inResponseTo: login.requestId,
      acsUrl: login.acsUrl,
      nameId: pairwiseSubject(this.subjectKey, sp.entityId, personSubject(this.subjectKey, sp.environment, personKeyOf(view.user))),
      authnContext: login.authnContext,
      authnInstant: 'completedAt' in view && view.completedAt ? new Date(view.completedAt) : now,
      attributes: releasedAttributes({ user: view.user, sessionId: login.sessionId, evidence, operation: login.operation }, sp.attributes),
    });
    return { kind: 'post', action: login.acsUrl, fields: { SAMLResponse: response, RelayState: login.relayState } };
  }

  /** The page's cancel button: the session ends, and the SP hears the framework's cancel status. */
  async cancel(open: OpenLogin): Promise<SamlAnswer> {
    // Already ended (the app cancelled first): the SP is told the same.
    await this.sessions.cancel(open.principal, open.login.sessionId).catch(() => undefined);
    if (!(await this.logins.claimAnswer(open.uid))) return problem('This login has been answered already.');
    return this.status(open, STATUS.responder, STATUS.cancel, 'The user cancelled.');
  }

  private status(open: OpenLogin, status: string, subStatus: string, message: string): SamlAnswer {
    const response = statusResponse({
      issuer: this.identity.entityId,
      key: this.identity.signingKey(),
      now: this.clock.now(),
      destination: open.login.acsUrl,
      inResponseTo: open.login.requestId,
      status,
      subStatus,
      message,
    });
    return { kind: 'post', action: open.login.acsUrl, fields: { SAMLResponse: response, RelayState: open.login.relayState } };
  }
}
