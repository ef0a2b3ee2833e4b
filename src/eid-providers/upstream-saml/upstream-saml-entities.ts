import { BINDING } from '../../saml/saml-protocol.js';
import { samlify, type SamlifyIdentityProvider, type SamlifyServiceProvider } from '../../saml/samlify.js';
import type { UpstreamSamlConfig } from './upstream-saml.env.js';

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
/** How far the IdP's clock may be from ours for NotBefore and NotOnOrAfter. */
export const CLOCK_SKEW_MS = 60_000;

/** Our SP and the upstream IdP as samlify sees them, with the addresses the Response must name. */
export interface UpstreamSamlEntities {
  sp: SamlifyServiceProvider;
  idp: SamlifyIdentityProvider;
  /** Our SP's entityID: the Audience the assertion must be restricted to. */
  entityId: string;
  /** The upstream's own ACS (one per upstream): the Response's Destination and the bearer's Recipient. */
  acsUrl: string;
  /** Where our SP metadata is published for the IdP to import. */
  metadataUrl: string;
}

/** Builds samlify's two entities for one upstream (docs/saml.md, "Upstream SAML e-IDs"). */
export function upstreamSamlEntities(upstream: UpstreamSamlConfig, publicBaseUrl: string): UpstreamSamlEntities {
  const base = `${publicBaseUrl}/upstream/${encodeURIComponent(upstream.name)}`;
  const metadataUrl = `${base}/metadata`;
  const entityId = upstream.entityId ?? metadataUrl;
  const acsUrl = `${base}/callback`;
  const sp = samlify().ServiceProvider({
    entityID: entityId,
    privateKey: upstream.spPrivateKey,
    signingCert: upstream.spCertificate,
    encPrivateKey: upstream.spPrivateKey,
    encryptCert: upstream.spCertificate,
    authnRequestsSigned: true,
    wantAssertionsSigned: true,
    requestSignatureAlgorithm: RSA_SHA256,
    clockDrifts: [-CLOCK_SKEW_MS, CLOCK_SKEW_MS],
    assertionConsumerService: [{ Binding: BINDING.post, Location: acsUrl }],
  });
  return { sp, idp: upstreamSamlIdp(upstream), entityId, acsUrl, metadataUrl };
}

/** The upstream IdP from its metadata: the certificate its signatures are checked by. */
export function upstreamSamlIdp(upstream: UpstreamSamlConfig): SamlifyIdentityProvider {
  return samlify().IdentityProvider({ metadata: upstream.metadata, isAssertionEncrypted: upstream.encryptedAssertions });
}
