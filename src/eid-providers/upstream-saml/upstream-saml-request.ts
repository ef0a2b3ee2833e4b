import { randomBytes } from 'node:crypto';
import { BINDING, SAML_NS } from '../../saml/saml-protocol.js';
import { xmlEscape } from '../../saml/saml-xml-text.js';
import type { UpstreamSamlEntities } from './upstream-saml-entities.js';
import type { UpstreamSamlConfig } from './upstream-saml.env.js';

/**
 * The signed HTTP-Redirect AuthnRequest to the upstream (docs/saml.md, "Upstream SAML e-IDs"): our ACS
 * by URL and POST binding, the configured AuthnContextClassRefs exact. samlify signs the query
 * (SigAlg, Signature) with our SP key; the ID is the InResponseTo the answer must carry.
 */
export function authnRequestUrl(
  upstream: UpstreamSamlConfig,
  entities: UpstreamSamlEntities,
  issueInstant: Date,
): { requestId: string; url: string } {
  const requestId = `_${randomBytes(20).toString('hex')}`;
  const contexts = upstream.authnContexts ?? [];
  const requested = contexts.length
    ? `<samlp:RequestedAuthnContext Comparison="exact">${contexts
        .map((context) => `<saml:AuthnContextClassRef>${xmlEscape(context)}</saml:AuthnContextClassRef>`)
        .join('')}</samlp:RequestedAuthnContext>`
    : '';
  const xml =
    `<samlp:AuthnRequest xmlns:samlp="${SAML_NS.protocol}" xmlns:saml="${SAML_NS.assertion}" ID="${requestId}" Version="2.0"` +
    ` IssueInstant="${issueInstant.toISOString()}" Destination="${xmlEscape(upstream.ssoUrl)}"` +
    ` ProtocolBinding="${BINDING.post}" AssertionConsumerServiceURL="${xmlEscape(entities.acsUrl)}">` +
    `<saml:Issuer>${xmlEscape(entities.entityId)}</saml:Issuer>${requested}</samlp:AuthnRequest>`;
  const { context } = entities.sp.createLoginRequest(entities.idp, 'redirect', {
    customTagReplacement: () => ({ id: requestId, context: xml }),
  });
  return { requestId, url: context };
}
