import { parseSamlXml } from '../saml-xml.js';
import { readAuthnRequest, readRequestExtensions } from './authn-request.js';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const request = (extensions = '', context = '') =>
  parseSamlXml(
    `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
      `ID="_r1" IssueInstant="2026-12-07T06:00:00Z" Destination="https://idp/saml/sso" AssertionConsumerServiceURL="https://sp/acs">` +
      `<saml:Issuer>https://sp</saml:Issuer>${extensions ? `<samlp:Extensions>${extensions}</samlp:Extensions>` : ''}${context}` +
      `</samlp:AuthnRequest>`,
  );

describe('AuthnRequest reading', () => {
  it('should read the request and its requested authentication contexts in order', () => {
    const facts = readAuthnRequest(
      request(
        '',
        '<samlp:RequestedAuthnContext><saml:AuthnContextClassRef>urn:a</saml:AuthnContextClassRef>' +
          '<saml:AuthnContextClassRef>urn:b</saml:AuthnContextClassRef></samlp:RequestedAuthnContext>',
      ),
    );
    expect(facts).toEqual({
      id: '_r1',
      issuer: 'https://sp',
      destination: 'https://idp/saml/sso',
      issueInstant: '2026-12-07T06:00:00Z',
      acsUrl: 'https://sp/acs',
      protocolBinding: undefined,
      authnContexts: ['urn:a', 'urn:b'],
      signedReferences: [],
    });
  });

  it('should read PrincipalSelection, and a UserMessage in Swedish before English', () => {
    const extensions = readRequestExtensions(
      request(
        '<psc:PrincipalSelection xmlns:psc="http://id.swedenconnect.se/authn/1.0/principal-selection/ns">' +
          '<psc:MatchValue Name="urn:oid:1.2.752.29.4.13">199001011239</psc:MatchValue></psc:PrincipalSelection>' +
          '<umsg:UserMessage xmlns:umsg="http://id.swedenconnect.se/authn/1.0/user-message/ns" MimeType="text/markdown">' +
          `<umsg:Message xml:lang="en">${b64('Hello')}</umsg:Message><umsg:Message xml:lang="sv">${b64('Hej **du**')}</umsg:Message>` +
          '</umsg:UserMessage>',
      ),
    );
    expect(extensions).toEqual({
      personalNumber: '199001011239',
      userMessage: { text: 'Hej **du**', format: 'simpleMarkdownV1' },
      signMessage: undefined,
    });
  });

  it('should read a SignMessage in the clear and refuse an encrypted one or another MIME type', () => {
    const sign = (inner: string, mime = 'text') =>
      request(`<csig:SignMessage xmlns:csig="http://id.elegnamnden.se/csig/1.1/dss-ext/ns" MimeType="${mime}">${inner}</csig:SignMessage>`);
    expect(readRequestExtensions(sign(`<csig:Message>${b64('Jag skriver under')}</csig:Message>`)).signMessage).toEqual({
      text: 'Jag skriver under',
      format: 'plaintext',
    });
    expect(() => readRequestExtensions(sign('<csig:EncryptedMessage/>'))).toThrow(/no Message in the clear/);
    expect(() => readRequestExtensions(sign(`<csig:Message>${b64('x')}</csig:Message>`, 'text/html'))).toThrow(/MimeType/);
  });

  it('should refuse a message that is not an AuthnRequest or has no Issuer', () => {
    expect(() =>
      readAuthnRequest(parseSamlXml('<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_x"/>')),
    ).toThrow(/not an AuthnRequest/);
    expect(() =>
      readAuthnRequest(parseSamlXml('<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_x"/>')),
    ).toThrow(/no ID or no Issuer/);
  });
});
