import { KioskLinks } from '../../kiosk-tokens/kiosk-links.js';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Clock } from '../../common/clock/clock.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import { randomBase62 } from '../../common/crypto/random-token.js';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import { EidProviderRegistry, type SamlMethod } from '../../eid-providers/eid-provider.registry.js';
import { loginDeviceOf } from '../../oidc/login/oidc-login-device.js';
import { SessionsService } from '../../sessions/api/sessions.service.js';
import type { StartSessionBody } from '../../sessions/api/dto/start-session-body.js';
import { TeamsService } from '../../teams/teams.service.js';
import { statusResponse } from '../response/saml-response.js';
import { SamlIdentity } from '../saml-identity.js';
import { samlPrincipal } from '../saml-principal.js';
import { ISSUE_INSTANT_SKEW_MS, STATUS } from '../saml-protocol.js';
import { samlify, type SamlifyServiceProvider } from '../samlify.js';
import { parseSamlXml, SamlXmlError } from '../saml-xml.js';
import type { SamlServiceProvider } from '../service-providers/saml-service-provider.js';
import { SamlServiceProviderStore } from '../service-providers/saml-service-provider.store.js';
import { readAuthnRequest, readRequestExtensions, type AuthnRequestFacts, type RequestExtensions } from './authn-request.js';
import { problem, type SamlAnswer } from './saml-answer.js';
import { readBoundMessage, type BoundMessage, type SamlBinding } from './saml-binding.js';
import { browserHashOf, loginAad, loginCookie, type SamlLogin } from './saml-login-record.js';
import { SamlLoginStore } from './saml-login.store.js';

// A login has as long as a session and some: the row also remembers the request ID against replays.
export const LOGIN_TTL_SECONDS = 30 * 60;
const PERSONAL_NUMBER = /^\d{12}$/;

/** A check the request failed after its SP and ACS were known: a SAML error Response goes back there. */
class Refusal extends Error {
  constructor(
    message: string,
    readonly status: string = STATUS.requester,
    readonly subStatus?: string,
  ) {
    super(message);
  }
}

/** The SSO endpoint (docs/saml.md, "AuthnRequest"): every check, then an e-ID session of the same engine as the API's. */
@Injectable()
export class SamlSsoService {
  private readonly logger = new Logger('SamlSso');

  constructor(
    private readonly identity: SamlIdentity,
    private readonly serviceProviders: SamlServiceProviderStore,
    private readonly logins: SamlLoginStore,
    private readonly sessions: SessionsService,
    private readonly teams: TeamsService,
    private readonly registry: EidProviderRegistry,
    private readonly kioskLinks: KioskLinks,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
  ) {}

  async begin(request: FastifyRequest, binding: SamlBinding): Promise<SamlAnswer> {
    const key = this.identity.signingKey();
    let message: BoundMessage;
    let facts: AuthnRequestFacts;
    try {
      message = readBoundMessage(request, binding, 'SAMLRequest');
      facts = readAuthnRequest(parseSamlXml(message.xml));
    } catch (error) {
      if (error instanceof SamlXmlError) return problem(error.message);
      throw error;
    }
    const sp = await this.serviceProviders.findByEntityId(facts.issuer);
    if (!sp) return problem('The AuthnRequest names a service provider that is not registered.');
    // Never an answer to an address the SP did not register: a page instead.
    const acsUrl = facts.acsUrl ?? sp.acsUrls[0];
    if (!sp.acsUrls.includes(acsUrl)) return problem('The AuthnRequest names an AssertionConsumerServiceURL the SP has not registered.');
    try {
      return await this.accept(request, message, facts, sp, acsUrl);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      this.logger.log({ sp: sp.id, reason: error.message }, 'AuthnRequest refused');
      const response = statusResponse({
        issuer: this.identity.entityId,
        key,
        now: this.clock.now(),
        destination: acsUrl,
        inResponseTo: facts.id,
        status: error.status,
        subStatus: error.subStatus,
        message: error.message,
      });
      return { kind: 'post', action: acsUrl, fields: { SAMLResponse: response, RelayState: message.relayState } };
    }
  }

  private async accept(
    request: FastifyRequest,
    message: BoundMessage,
    facts: AuthnRequestFacts,
    sp: SamlServiceProvider,
    acsUrl: string,
  ): Promise<SamlAnswer> {
    await this.verifySignature(message, sp);
    // The enveloped signature must be over the request itself, not an element wrapped inside a forged one.
    if (message.binding === 'post' && (facts.signedReferences.length !== 1 || facts.signedReferences[0] !== `#${facts.id}`))
      throw new Refusal('The AuthnRequest signature does not sign the request itself.');
    if (facts.destination !== this.identity.ssoUrl) throw new Refusal('The AuthnRequest is for another Destination.');
    const issued = facts.issueInstant ? Date.parse(facts.issueInstant) : NaN;
    if (!Number.isFinite(issued) || Math.abs(this.clock.nowMs() - issued) > ISSUE_INSTANT_SKEW_MS)
      throw new Refusal('The AuthnRequest IssueInstant is more than 5 minutes off.');
    if (facts.protocolBinding && facts.protocolBinding !== 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST')
      throw new Refusal('Responses are sent with HTTP-POST only.');
    let extensions: RequestExtensions;
    try {
      extensions = readRequestExtensions(parseSamlXml(message.xml));
    } catch (error) {
      if (error instanceof SamlXmlError) throw new Refusal(error.message);
      throw error;
    }
    if (extensions.personalNumber !== undefined && !PERSONAL_NUMBER.test(extensions.personalNumber))
      throw new Refusal('The PrincipalSelection personalIdentityNumber is not 12 digits.');
    const operation = extensions.signMessage ? 'sign' : 'auth';
    const method = this.methodFor(sp, operation, facts.authnContexts);
    if (!method)
      throw new Refusal('No e-ID of the requested authentication context is available.', STATUS.responder, STATUS.noAuthnContext);

    // The request ID is claimed before any session exists: a replay starts nothing.
    const uid = randomBase62(32);
    const browserSecret = randomBase62(43);
    const expiresAt = new Date(this.clock.nowMs() + LOGIN_TTL_SECONDS * 1000);
    const pending = this.cipher.encryptJson({ pending: true }, loginAad(uid));
    if (!(await this.logins.insert(uid, sp.id, facts.id, pending, expiresAt))) throw new Refusal('The AuthnRequest ID was used before.');

    const principal = samlPrincipal(sp, await this.teams.get(sp.teamId));
    const started = await this.sessions
      .start(
        principal,
        method.provider.name,
        {
          ...this.orderOf(facts, extensions, sp, method),
          endUserIp: request.ip,
          web: loginDeviceOf(request, this.server.publicBaseUrl).web,
          metadata: { samlServiceProvider: sp.entityId },
          // An upstream's callback brings this browser back to the login page, which then answers the SP.
          ...(method.provider.openId.redirectsBrowser ? { returnUrl: `${this.server.publicBaseUrl}/saml/login/${uid}` } : {}),
        },
        { operation, channel: 'app' },
      )
      .catch((error: Error) => {
        this.logger.warn({ sp: sp.id, err: error.name }, 'The e-ID session could not start');
        throw new Refusal('The e-ID could not be reached.', STATUS.responder);
      });
    // The page shows the QR but never the app link: a link sent to someone else's phone would finish
    // this browser's login with that person's e-ID (docs/saml.md, "The login").
    const kioskToken = started.kioskUrl ? this.kioskLinks.watchTokenFor(started.sessionId, new Date(started.expiresAt)) : null;
    const login: SamlLogin = {
      sessionId: started.sessionId,
      kioskToken,
      provider: method.provider.name,
      authnContext: method.authnContext,
      operation,
      acsUrl,
      requestId: facts.id,
      relayState: message.relayState,
      browserHash: browserHashOf(browserSecret),
      ...(method.provider.openId.redirectsBrowser ? { awaitsReturn: true as const } : {}),
    };
    await this.logins.savePayload(uid, this.cipher.encryptJson(login, loginAad(uid)));
    const setCookie = loginCookie(uid, browserSecret, this.server.publicBaseUrl.startsWith('https:'), LOGIN_TTL_SECONDS);
    // An upstream signs the person in at its own site in this browser: go there at once.
    if (started.launchUrl && method.provider.openId.redirectsBrowser) return { kind: 'redirect', location: started.launchUrl, setCookie };
    return { kind: 'redirect', location: `/saml/login/${uid}`, setCookie };
  }

  /** samlify verifies the SP's signature: the query's for Redirect, the enveloped one for POST. */
  private async verifySignature(message: BoundMessage, sp: SamlServiceProvider): Promise<void> {
    try {
      await this.identity.entity().parseLoginRequest(serviceProviderEntity(sp), message.binding, message.samlify);
    } catch (error) {
      this.logger.debug({ err: (error as Error).message }, 'AuthnRequest signature check failed');
      throw new Refusal('The AuthnRequest is not signed, or its signature does not verify with the registered certificate.');
    }
  }

  /** The SP's providers in its order of preference (or the registry's), each meeting a requested authentication context. */
  private methodFor(sp: SamlServiceProvider, operation: 'auth' | 'sign', requested: string[]): SamlMethod | undefined {
    const methods = this.registry.samlMethods(sp.environment, operation, requested);
    if (!sp.providers) return methods[0];
    for (const name of sp.providers) {
      const method = methods.find((m) => m.provider.name === name);
      if (method) return method;
    }
    return undefined;
  }

  /** The framework's extensions as the session engine's order (docs/saml.md, "Extensions"). */
  private orderOf(
    facts: AuthnRequestFacts,
    extensions: RequestExtensions,
    sp: SamlServiceProvider,
    method: SamlMethod,
  ): Omit<StartSessionBody, 'metadata'> {
    const requirement =
      extensions.personalNumber && method.provider.openId.personalNumberRequirement
        ? { requirement: { personalNumber: extensions.personalNumber } }
        : {};
    if (extensions.signMessage) {
      // The BankID profile (4.2.1.2): the hidden data binds the signature to this SP and this request.
      const bound = `entityID=${encodeURIComponent(sp.entityId)};authnRequestID=${encodeURIComponent(facts.id)}`;
      return {
        userVisibleData: extensions.signMessage.text,
        userVisibleDataFormat: extensions.signMessage.format,
        userNonVisibleData: Buffer.from(bound, 'utf8').toString('base64'),
        ...requirement,
      };
    }
    return {
      ...(extensions.userMessage
        ? { userVisibleData: extensions.userMessage.text, userVisibleDataFormat: extensions.userMessage.format }
        : {}),
      ...requirement,
    };
  }
}

/** A registered SP as samlify sees it: its certificates, its ACS URLs, and that it signs and wants signatures. */
export function serviceProviderEntity(sp: SamlServiceProvider): SamlifyServiceProvider {
  return samlify().ServiceProvider({
    entityID: sp.entityId,
    signingCert: sp.signingCertificate,
    ...(sp.encryptionCertificate ? { encryptCert: sp.encryptionCertificate } : {}),
    assertionConsumerService: sp.acsUrls.map((Location) => ({ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', Location })),
    authnRequestsSigned: true,
    wantAssertionsSigned: true,
    wantMessageSigned: true,
  });
}
