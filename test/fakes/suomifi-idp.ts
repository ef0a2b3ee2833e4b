// Suomi.fi e-Identification played by samlify's IdP (docs/saml.md, "Upstream SAML e-IDs"): it
// publishes IdP metadata wanting signed AuthnRequests, checks the gateway's AuthnRequest signature by
// the SP metadata the gateway publishes, and answers as Suomi.fi does: the assertion signed, then
// encrypted to the SP, the Response signed; the person's HETU as urn:oid:1.2.246.21. Knobs make the
// forged, expired, wrong-audience and cancelled answers the negative tests need.
import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { BINDING, SAML_NS, STATUS } from '../../src/saml/saml-protocol.js';
import { AFTER_ROOT_ISSUER, signElement } from '../../src/saml/saml-signer.js';
import { samlify } from '../../src/saml/samlify.js';
import type { KeyPair } from '../support/saml-sp.js';

export const SUOMIFI_LOA = 'http://ftn.ficora.fi/2017/loa3';
const AUTHN_FAILED = 'urn:oasis:names:tc:SAML:2.0:status:AuthnFailed';
const ATTRNAME_URI = 'urn:oasis:names:tc:SAML:2.0:attrname-format:uri';

export interface SuomiFiAnswer {
  /** Where the browser POSTs it: the ACS the AuthnRequest named. */
  acsUrl: string;
  SAMLResponse: string;
  /** The AuthnRequest as the IdP read it. */
  request: { id: string; authnContext?: string };
}

export interface SuomiFiKnobs {
  /** cancel: the person pressed cancel (Responder / AuthnFailed, as Suomi.fi answers). */
  outcome?: 'approve' | 'cancel';
  /** Signed by a key the metadata does not name. */
  forged?: boolean;
  /** The bearer and the conditions ended this long ago. */
  expiredMs?: number;
  audience?: string;
  authnContext?: string;
  /** The Response signed, the assertion inside the encryption not (as some IdPs answer). */
  unsignedAssertion?: boolean;
}

type Idp = {
  getMetadata(): string;
  parseLoginRequest(
    sp: unknown,
    binding: 'redirect',
    request: unknown,
  ): Promise<{ extract: { request: { id: string; assertionConsumerServiceUrl?: string } } }>;
  createLoginResponse(sp: unknown, info: unknown, binding: 'post', user: unknown, options: unknown): Promise<{ context: string }>;
};

const newId = () => `_${randomBytes(16).toString('hex')}`;

export class FakeSuomiFi {
  readonly entityId = 'https://testi.apro.tunnistus.fi/idp1';
  readonly ssoUrl = 'https://testi.apro.tunnistus.fi/idp/profile/SAML2/Redirect/SSO';
  private readonly idp: Idp;
  private readonly forger: Idp;

  constructor(
    private readonly key: KeyPair,
    stranger: KeyPair,
  ) {
    this.idp = this.entity(key);
    this.forger = this.entity(stranger);
  }

  /** The IdP metadata the gateway's SAML_UPSTREAMS names. */
  metadata(): string {
    return this.idp.getMetadata();
  }

  /** The person at Suomi.fi: reads the AuthnRequest of the redirect URL and answers it. */
  async answer(requestUrl: string, spMetadata: string, knobs: SuomiFiKnobs = {}): Promise<SuomiFiAnswer> {
    const url = new URL(requestUrl);
    if (`${url.origin}${url.pathname}` !== this.ssoUrl) throw new Error(`Not Suomi.fi's SSO: ${requestUrl}`);
    const query = Object.fromEntries(url.searchParams);
    const raw = url.search.slice(1).split('&');
    const octetString = ['SAMLRequest', 'RelayState', 'SigAlg']
      .map((name) => raw.find((part) => part.startsWith(`${name}=`)))
      .filter(Boolean)
      .join('&');
    const metadata = knobs.unsignedAssertion
      ? spMetadata.replace('WantAssertionsSigned="true"', 'WantAssertionsSigned="false"')
      : spMetadata;
    const sp = samlify().ServiceProvider({ metadata, wantMessageSigned: true });
    // An unsigned or badly signed AuthnRequest throws here, as Suomi.fi refuses it.
    const { extract } = await this.idp.parseLoginRequest(sp, 'redirect', { query, octetString });
    const acsUrl = extract.request.assertionConsumerServiceUrl!;
    const authnRequest = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    const request = { id: extract.request.id, authnContext: /<saml:AuthnContextClassRef>([^<]+)</.exec(authnRequest)?.[1] };
    if (knobs.outcome === 'cancel') return { acsUrl, request, SAMLResponse: this.cancelResponse(acsUrl, request.id) };
    const now = Date.now();
    const until = new Date(now + (knobs.expiredMs ? -knobs.expiredMs : 5 * 60_000)).toISOString();
    const issued = new Date(knobs.expiredMs ? now - knobs.expiredMs - 60_000 : now).toISOString();
    const audience = knobs.audience ?? (sp as unknown as { entityMeta: { getEntityID(): string } }).entityMeta.getEntityID();
    const attribute = (name: string, value: string) =>
      `<saml:Attribute Name="${name}" NameFormat="${ATTRNAME_URI}"><saml:AttributeValue>${value}</saml:AttributeValue></saml:Attribute>`;
    const assertion =
      `<saml:Assertion xmlns:saml="${SAML_NS.assertion}" ID="${newId()}" Version="2.0" IssueInstant="${issued}">` +
      `<saml:Issuer>${this.entityId}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:transient">${newId()}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
      `<saml:SubjectConfirmationData InResponseTo="${request.id}" NotOnOrAfter="${until}" Recipient="${acsUrl}"/>` +
      `</saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${issued}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${audience}</saml:Audience>` +
      `</saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="${newId()}"><saml:AuthnContext>` +
      `<saml:AuthnContextClassRef>${knobs.authnContext ?? request.authnContext ?? SUOMIFI_LOA}</saml:AuthnContextClassRef>` +
      `</saml:AuthnContext></saml:AuthnStatement>` +
      `<saml:AttributeStatement>${attribute('urn:oid:1.2.246.21', '010170-999R')}${attribute('urn:oid:2.5.4.42', 'Nordea')}` +
      `${attribute('urn:oid:2.5.4.4', 'Demo')}${attribute('urn:oid:2.5.4.3', 'Demo Nordea')}</saml:AttributeStatement>` +
      `</saml:Assertion>`;
    const id = newId();
    const xml =
      `<samlp:Response xmlns:samlp="${SAML_NS.protocol}" xmlns:saml="${SAML_NS.assertion}" ID="${id}" Version="2.0" ` +
      `IssueInstant="${issued}" Destination="${acsUrl}" InResponseTo="${request.id}"><saml:Issuer>${this.entityId}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="${STATUS.success}"/></samlp:Status>${assertion}</samlp:Response>`;
    const signer = knobs.forged ? this.forger : this.idp;
    const built = await signer.createLoginResponse(
      sp,
      { extract: { request: { id: request.id } } },
      'post',
      {},
      {
        customTagReplacement: () => ({ id, context: xml }),
        encryptThenSign: true,
      },
    );
    return { acsUrl, request, SAMLResponse: built.context };
  }

  private cancelResponse(acsUrl: string, inResponseTo: string): string {
    const xml =
      `<samlp:Response xmlns:samlp="${SAML_NS.protocol}" xmlns:saml="${SAML_NS.assertion}" ID="${newId()}" Version="2.0" ` +
      `IssueInstant="${new Date().toISOString()}" Destination="${acsUrl}" InResponseTo="${inResponseTo}">` +
      `<saml:Issuer>${this.entityId}</saml:Issuer><samlp:Status><samlp:StatusCode Value="${STATUS.responder}">` +
      `<samlp:StatusCode Value="${AUTHN_FAILED}"/></samlp:StatusCode><samlp:StatusMessage>Cancelled</samlp:StatusMessage></samlp:Status>` +
      `</samlp:Response>`;
    return Buffer.from(signElement(xml, { privateKey: this.key.key, certificate: this.key.cert }, AFTER_ROOT_ISSUER), 'utf8').toString(
      'base64',
    );
  }

  private entity(signing: KeyPair): Idp {
    return samlify().IdentityProvider({
      entityID: this.entityId,
      // The metadata names the real key; a forger signs with its own.
      signingCert: this.key.cert,
      privateKey: signing.key,
      wantAuthnRequestsSigned: true,
      isAssertionEncrypted: true,
      requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      dataEncryptionAlgorithm: 'http://www.w3.org/2009/xmlenc11#aes256-gcm',
      keyEncryptionAlgorithm: 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p',
      singleSignOnService: [{ Binding: BINDING.redirect, Location: this.ssoUrl }],
      singleLogoutService: [{ Binding: BINDING.redirect, Location: 'https://testi.apro.tunnistus.fi/idp/profile/SAML2/Redirect/SLO' }],
    }) as unknown as Idp;
  }
}
