import { SAML_NS } from '../../saml/saml-protocol.js';
import { SamlXmlError } from '../../saml/saml-xml.js';
import { userFromAttributes } from './upstream-saml-attributes.js';
import { failedHintCode, receiveResponse } from './upstream-saml-response.js';
import type { UpstreamSamlConfig } from './upstream-saml.env.js';

const base64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
const response = (status: string) =>
  `<samlp:Response xmlns:samlp="${SAML_NS.protocol}" ID="_r" Version="2.0" InResponseTo="_req">${status}</samlp:Response>`;
const upstream = {
  country: 'FI',
  cancelStatusCodes: ['urn:oasis:names:tc:SAML:2.0:status:AuthnFailed'],
  attributes: { nationalId: 'urn:oid:1.2.246.21', givenName: 'urn:oid:2.5.4.42', surname: 'urn:oid:2.5.4.4' },
} as unknown as UpstreamSamlConfig;

describe(receiveResponse.name, () => {
  it('should read the InResponseTo and both status levels before any signature is checked', () => {
    const cancelled = response(
      '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder">' +
        '<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:AuthnFailed"/></samlp:StatusCode></samlp:Status>',
    );
    const received = receiveResponse(base64(cancelled));
    expect(received).toMatchObject({ inResponseTo: '_req', status: 'urn:oasis:names:tc:SAML:2.0:status:Responder' });
    expect(failedHintCode(received, upstream)).toBe('userCancel');
    expect(failedHintCode({ ...received, subStatus: 'urn:oasis:names:tc:SAML:2.0:status:RequestDenied' }, upstream)).toBe('providerError');
  });

  it('should refuse a DTD, a message that is no Response, and a missing field, before parsing further', () => {
    expect(() => receiveResponse(base64(`<!DOCTYPE x>${response('')}`))).toThrow(SamlXmlError);
    expect(() => receiveResponse(base64(`<samlp:AuthnRequest xmlns:samlp="${SAML_NS.protocol}"/>`))).toThrow('not a Response');
    expect(() => receiveResponse(undefined)).toThrow('no SAMLResponse');
    expect(() => receiveResponse('A'.repeat(200_000))).toThrow('too large');
  });
});

describe(userFromAttributes.name, () => {
  it("should map the attributes' first values, naming the person from the parts when no name is mapped", () => {
    expect(
      userFromAttributes({ 'urn:oid:1.2.246.21': ['010170-999R'], 'urn:oid:2.5.4.42': 'Nordea', 'urn:oid:2.5.4.4': 'Demo' }, upstream),
    ).toEqual({ nationalId: '010170-999R', name: 'Nordea Demo', givenName: 'Nordea', surname: 'Demo', country: 'FI' });
  });

  it('should give nobody without the identifier: a name is nobody’s identity', () => {
    expect(userFromAttributes({ 'urn:oid:2.5.4.42': 'Nordea' }, upstream)).toBeNull();
    expect(userFromAttributes({ 'urn:oid:1.2.246.21': ' ' }, upstream)).toBeNull();
  });
});
