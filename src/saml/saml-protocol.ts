// The names of SAML 2.0 and of the Swedish eID Framework this front speaks (docs/saml.md).
export const SAML_NS = {
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  mdui: 'urn:oasis:names:tc:SAML:metadata:ui',
  mdattr: 'urn:oasis:names:tc:SAML:metadata:attribute',
  /** The Metadata Profile for Algorithm Support: which digest and signature methods an entity uses. */
  alg: 'urn:oasis:names:tc:SAML:metadata:algsupport',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
  /** The framework's Principal Selection extension. */
  principalSelection: 'http://id.swedenconnect.se/authn/1.0/principal-selection/ns',
  /** The framework's User Message extension. */
  userMessage: 'http://id.swedenconnect.se/authn/1.0/user-message/ns',
  /** The DSS extension of a signature service's SignMessage. */
  signMessage: 'http://id.elegnamnden.se/csig/1.1/dss-ext/ns',
} as const;

export const BINDING = {
  redirect: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
  post: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
} as const;

export const STATUS = {
  success: 'urn:oasis:names:tc:SAML:2.0:status:Success',
  requester: 'urn:oasis:names:tc:SAML:2.0:status:Requester',
  responder: 'urn:oasis:names:tc:SAML:2.0:status:Responder',
  authnFailed: 'urn:oasis:names:tc:SAML:2.0:status:AuthnFailed',
  noAuthnContext: 'urn:oasis:names:tc:SAML:2.0:status:NoAuthnContext',
  /** The framework's status for the user's cancel. */
  cancel: 'http://id.elegnamnden.se/status/1.0/cancel',
} as const;

export const NAMEID_PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
export const ATTRNAME_URI = 'urn:oasis:names:tc:SAML:2.0:attrname-format:uri';

export const ENTITY_CATEGORIES = [
  'http://id.elegnamnden.se/ec/1.0/loa3-pnr',
  'http://id.swedenconnect.se/general-ec/1.0/supports-user-message',
] as const;

/** The personalIdentityNumber attribute, which PrincipalSelection names too. */
export const PERSONAL_IDENTITY_NUMBER_OID = 'urn:oid:1.2.752.29.4.13';

/** How long an IssueInstant may be off our clock, either way (docs/saml.md, "Checks"). */
export const ISSUE_INSTANT_SKEW_MS = 5 * 60_000;
/** How long a Response is good for at the SP. */
export const RESPONSE_VALIDITY_MS = 5 * 60_000;
