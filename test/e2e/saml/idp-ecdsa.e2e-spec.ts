import { randomUUID } from 'node:crypto';
import { ValidateInResponseTo, type SAML } from '@node-saml/node-saml';
import { useFront } from '../../support/front.js';
import { approveInSimulator, CookieBrowser } from '../../support/oidc-rp.js';
import {
  createSamlPki,
  decodeBase64,
  finishSamlLogin,
  postForm,
  readSamlLoginPage,
  samlClient,
  teachXmlCryptoEcdsa,
  xmlsecVerify,
  type SamlPki,
} from '../../support/saml-sp.js';

const ACS = 'https://sp.example.test/saml/acs';
const ECDSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256';
const PERSONAL_NUMBER = 'urn:oid:1.2.752.29.4.13';

const signatureMethods = (xml: string) => [...xml.matchAll(/<ds:SignatureMethod Algorithm="([^"]+)"/g)].map((m) => m[1]);

describe('SAML IdP front with an EC P-256 signing key (ECDSA-SHA256)', () => {
  let pki: SamlPki;
  beforeAll(async () => {
    pki = await createSamlPki({ idpKey: 'ec' });
    teachXmlCryptoEcdsa();
  });
  const { e2e, member } = useFront({ env: () => ({ SAML_SIGNING_KEY: pki.idp.keyPath, SAML_SIGNING_CERT: pki.idp.certPath }) });
  afterAll(async () => {
    await pki?.remove();
  });

  const registerSp = async (body: Record<string, unknown> = {}, client: Parameters<typeof samlClient>[2] = {}) => {
    const entityId = `https://sp.example.test/${randomUUID()}`;
    await e2e.http
      .post('/api/v1/saml-service-providers')
      .set('authorization', (await member()).bearer)
      .send({ name: 'E-tjänst', entityId, acsUrls: [ACS], signingCertificate: pki.sp.cert, providers: ['simulator'], ...body })
      .expect(201);
    return { entityId, saml: samlClient(e2e.baseUrl, pki, { issuer: entityId, audience: entityId, ...client }) };
  };

  /** The browser's part: the request (by the SP's binding), the login page, the simulator's approval, the POST page. */
  const logIn = async (saml: SAML, binding: 'redirect' | 'post') => {
    const browser = new CookieBrowser();
    let start = binding === 'redirect' ? await saml.getAuthorizeUrlAsync('relay-ec', undefined, {}) : '';
    if (binding === 'post') {
      const request = postForm(await saml.getAuthorizeFormAsync('relay-ec', undefined, {}));
      const posted = await browser.get(request.action, { method: 'POST', body: new URLSearchParams(request.fields) });
      expect(posted.status).toBe(303);
      start = new URL(posted.headers.get('location')!, e2e.baseUrl).href;
    }
    const landed = await browser.follow(start, e2e.baseUrl);
    const page = readSamlLoginPage(landed.url, await landed.response!.text());
    await approveInSimulator(e2e.baseUrl, page);
    const done = await finishSamlLogin(browser, e2e.baseUrl, page.uid);
    expect(done.status).toBe(200);
    return postForm(await done.text());
  };

  it('should publish metadata signed ECDSA-SHA256 that advertises ECDSA-SHA256, which xmlsec1 verifies', async () => {
    const xml = (await e2e.http.get('/saml/metadata').expect(200)).text;
    expect(signatureMethods(xml)).toEqual([ECDSA_SHA256]);
    expect(xml).toContain(`<alg:SigningMethod Algorithm="${ECDSA_SHA256}"/>`);
    expect(xml).toContain('<alg:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>');
    expect(await xmlsecVerify(xml, pki.idp.certPath)).toEqual({ ok: true, output: expect.stringContaining('OK') });
    expect((await xmlsecVerify(xml.replace('loa3-pnr', 'loa4-pnr'), pki.idp.certPath)).ok).toBe(false);
  });

  it('should answer a login (HTTP-Redirect) with a Response and assertion signed ECDSA-SHA256 that xmlsec1 and node-saml verify', async () => {
    const { entityId, saml } = await registerSp();
    const form = await logIn(saml, 'redirect');
    expect(form.action).toBe(ACS);
    const xml = decodeBase64(form.fields.SAMLResponse);
    expect(signatureMethods(xml)).toEqual([ECDSA_SHA256, ECDSA_SHA256]);
    expect(await xmlsecVerify(xml, pki.idp.certPath)).toEqual({ ok: true, output: expect.stringContaining('OK') });
    const { profile } = await saml.validatePostResponseAsync(form.fields);
    expect(profile?.[PERSONAL_NUMBER]).toBe('199001011239');

    // node-saml's check is a real one: a changed attribute does not verify (another instance: the first used up InResponseTo).
    const forged = Buffer.from(xml.replace('199001011239', '199001011247'), 'utf8').toString('base64');
    const checker = samlClient(e2e.baseUrl, pki, {
      issuer: entityId,
      audience: entityId,
      validateInResponseTo: ValidateInResponseTo.never,
    });
    await expect(checker.validatePostResponseAsync({ ...form.fields, SAMLResponse: forged })).rejects.toThrow(/signature/i);
    expect((await xmlsecVerify(decodeBase64(forged), pki.idp.certPath)).ok).toBe(false);
  });

  it('should encrypt the ECDSA-signed assertion to an SP with an encryption certificate (HTTP-POST request)', async () => {
    const { saml } = await registerSp(
      { encryptionCertificate: pki.spEncryption.cert },
      { authnRequestBinding: 'HTTP-POST', skipRequestCompression: true, decryptionPvk: pki.spEncryption.key },
    );
    const form = await logIn(saml, 'post');
    const xml = decodeBase64(form.fields.SAMLResponse);
    expect(xml).toContain('EncryptedAssertion');
    expect(xml).not.toContain('199001011239');
    expect(signatureMethods(xml)).toEqual([ECDSA_SHA256]);
    expect(await xmlsecVerify(xml, pki.idp.certPath)).toEqual({ ok: true, output: expect.stringContaining('OK') });
    const { profile } = await saml.validatePostResponseAsync(form.fields);
    expect(profile?.[PERSONAL_NUMBER]).toBe('199001011239');
  });

  it('should sign an error Response and a LogoutResponse ECDSA-SHA256 too', async () => {
    const { entityId } = await registerSp({ singleLogoutUrl: 'https://sp.example.test/saml/slo' });
    const unsigned = samlClient(e2e.baseUrl, pki, { issuer: entityId, privateKey: undefined });
    const refused = postForm(await (await new CookieBrowser().get(await unsigned.getAuthorizeUrlAsync('', undefined, {}))).text());
    const error = decodeBase64(refused.fields.SAMLResponse);
    expect(error).toContain('urn:oasis:names:tc:SAML:2.0:status:Requester');
    expect(signatureMethods(error)).toEqual([ECDSA_SHA256]);
    expect(await xmlsecVerify(error, pki.idp.certPath)).toEqual({ ok: true, output: expect.stringContaining('OK') });

    const sp = samlClient(e2e.baseUrl, pki, { issuer: entityId, logoutUrl: `${e2e.baseUrl}/saml/slo` });
    const logoutUrl = await sp.getLogoutUrlAsync(
      { nameID: 'someone', nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent', issuer: '', sessionIndex: '' },
      '',
      {},
    );
    const logout = decodeBase64(postForm(await (await new CookieBrowser().get(logoutUrl)).text()).fields.SAMLResponse);
    expect(logout).toContain('<samlp:LogoutResponse');
    expect(signatureMethods(logout)).toEqual([ECDSA_SHA256]);
    expect(await xmlsecVerify(logout, pki.idp.certPath)).toEqual({ ok: true, output: expect.stringContaining('OK') });
  });
});
