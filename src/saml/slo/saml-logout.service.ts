import { Injectable, Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Element } from '@xmldom/xmldom';
import { Clock } from '../../common/clock/clock.js';
import { logoutResponse } from '../response/saml-response.js';
import { SamlIdentity } from '../saml-identity.js';
import { SAML_NS, STATUS } from '../saml-protocol.js';
import { parseSamlXml, SamlXmlError } from '../saml-xml.js';
import { SamlServiceProviderStore } from '../service-providers/saml-service-provider.store.js';
import { serviceProviderEntity } from '../sso/saml-sso.service.js';
import { problem, type SamlAnswer } from '../sso/saml-answer.js';
import { readBoundMessage, type SamlBinding } from '../sso/saml-binding.js';

/**
 * Single logout (docs/saml.md, "Logout"): the front keeps no SSO session (every login is a new e-ID
 * session), so a signed LogoutRequest is answered Success at once; an unsigned or forged one Requester.
 */
@Injectable()
export class SamlLogoutService {
  private readonly logger = new Logger('SamlLogout');

  constructor(
    private readonly identity: SamlIdentity,
    private readonly serviceProviders: SamlServiceProviderStore,
    private readonly clock: Clock,
  ) {}

  async answer(request: FastifyRequest, binding: SamlBinding): Promise<SamlAnswer> {
    const key = this.identity.signingKey();
    let id: string | undefined;
    let issuer: string | undefined;
    let ownSignature: boolean;
    let message;
    try {
      message = readBoundMessage(request, binding);
      const root = parseSamlXml(message.xml).documentElement as Element;
      if (root.namespaceURI !== SAML_NS.protocol || root.localName !== 'LogoutRequest') throw new SamlXmlError('Not a LogoutRequest');
      id = root.getAttribute('ID') ?? undefined;
      issuer = Array.from(root.getElementsByTagNameNS(SAML_NS.assertion, 'Issuer'))
        .find((element) => element.parentNode === root)
        ?.textContent?.trim();
      // As for an AuthnRequest: an enveloped signature signs the root itself (docs/saml.md, "Checks").
      const references = Array.from(root.getElementsByTagNameNS(SAML_NS.dsig, 'Signature'))
        .filter((signature) => signature.parentNode === root)
        .flatMap((signature) => Array.from(signature.getElementsByTagNameNS(SAML_NS.dsig, 'Reference')));
      ownSignature = binding === 'redirect' || (references.length === 1 && references[0].getAttribute('URI') === `#${id}`);
    } catch (error) {
      if (error instanceof SamlXmlError) return problem(error.message);
      throw error;
    }
    const sp = issuer ? await this.serviceProviders.findByEntityId(issuer) : undefined;
    if (!sp || !id) return problem('The LogoutRequest names no registered service provider.');
    if (!sp.singleLogoutUrl) return problem('You are logged out.', 200);
    const verified =
      ownSignature &&
      (await this.identity
        .entity()
        .parseLogoutRequest(serviceProviderEntity(sp), binding, message.samlify)
        .then(
          () => true,
          (error: Error) => {
            this.logger.log({ sp: sp.id, reason: error.message }, 'LogoutRequest refused');
            return false;
          },
        ));
    const response = logoutResponse({
      issuer: this.identity.entityId,
      key,
      now: this.clock.now(),
      destination: sp.singleLogoutUrl,
      inResponseTo: id,
      status: verified ? STATUS.success : STATUS.requester,
    });
    return { kind: 'post', action: sp.singleLogoutUrl, fields: { SAMLResponse: response, RelayState: message.relayState } };
  }
}
