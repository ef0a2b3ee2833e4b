import { randomUUID } from 'node:crypto';
import type { SAML } from '@node-saml/node-saml';
import { useFront } from '../../support/front.js';
import { approveInSimulator, CookieBrowser } from '../../support/oidc-rp.js';
import {
  createSamlPki,
  decodeBase64,
  finishSamlLogin,
  postForm,
  readSamlLoginPage,
  samlClient,
  xmlsecVerify,
  type SamlPki,
} from '../../support/saml-sp.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

const ACS = 'https://sp.example.test/saml/acs';
const LOA3 = 'http://id.elegnamnden.se/loa/1.0/loa3';
const OID = {
  personalIdentityNumber: 'urn:oid:1.2.752.29.4.13',
  givenName: 'urn:oid:2.5.4.42',
  sn: 'urn:oid:2.5.4.4',
  displayName: 'urn:oid:2.16.840.1.113730.3.1.241',
  dateOfBirth: 'urn:oid:1.3.6.1.5.5.7.9.1',
  transactionIdentifier: 'urn:oid:1.2.752.201.3.2',
  authServerSignature: 'urn:oid:1.2.752.201.3.13',
  userSignature: 'urn:oid:1.2.752.201.3.11',
};

describe('SAML IdP front (@node-saml/node-saml as the service provider)', () => {
  let pki: SamlPki;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    pki = await createSamlPki();
    receiver = await WebhookReceiver.start();
  });
  const { e2e, member } = useFront({
    env: () => ({ SAML_SIGNING_KEY: pki.idp.keyPath, SAML_SIGNING_CERT: pki.idp.certPath, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }),
  });
  afterAll(async () => {
    await receiver?.close();
    await pki?.remove();
  });

  /** A registered SP with its own entityID, and node-saml playing it. */
  const registerSp = async (body: Record<string, unknown> = {}, client: Parameters<typeof samlClient>[2] = {}) => {
    const entityId = `https://sp.example.test/${randomUUID()}`;
    const created = await e2e.http
      .post('/api/v1/saml-service-providers')
      .set('authorization', (await member()).bearer)
      .send({ name: 'E-tjänst', entityId, acsUrls: [ACS], signingCertificate: pki.sp.cert, providers: ['simulator'], ...body })
      .expect(201);
    return {
      sp: created.body as { id: string; entityId: string },
      saml: samlClient(e2e.baseUrl, pki, { issuer: entityId, audience: entityId, ...client }),
    };
  };

  /** The browser's part over HTTP-Redirect: the signed request, the login page, the app's approval, the POST page. */
  const logIn = async (saml: SAML, user: { personalNumber?: string; action?: 'approve' | 'cancel' } = {}) => {
    const browser = new CookieBrowser();
    const landed = await browser.follow(await saml.getAuthorizeUrlAsync('relay-1', undefined, {}), e2e.baseUrl);
    expect(landed.url).toContain('/saml/login/');
    const page = readSamlLoginPage(landed.url, await landed.response!.text());
    await approveInSimulator(e2e.baseUrl, page, user);
    const done = await finishSamlLogin(browser, e2e.baseUrl, page.uid);
    expect(done.status).toBe(200);
    return { form: postForm(await done.text()), page, browser };
  };

  /** What the front answers a request with at once: the POST page (an error Response) or a problem page. */
  const answerTo = async (url: string) => {
    const response = await new CookieBrowser().get(url);
    return { status: response.status, html: await response.text(), location: response.headers.get('location') };
  };

  const statusOf = (xml: string) => [...xml.matchAll(/<samlp:StatusCode Value="([^"]+)"/g)].map((m) => m[1]);

  it('should publish signed metadata with the framework entity categories, WantAuthnRequestsSigned and both bindings', async () => {
    const response = await e2e.http.get('/saml/metadata').expect(200);
    expect(response.headers['content-type']).toContain('application/samlmetadata+xml');
    const xml = response.text;
    expect(xml).toContain(`entityID="${e2e.baseUrl}/saml"`);
    expect(xml).toContain('WantAuthnRequestsSigned="true"');
    expect(xml).toContain('<saml:AttributeValue>http://id.elegnamnden.se/ec/1.0/loa3-pnr</saml:AttributeValue>');
    expect(xml).toContain('<saml:AttributeValue>http://id.swedenconnect.se/general-ec/1.0/supports-user-message</saml:AttributeValue>');
    expect(xml).toContain('<mdui:UIInfo>');
    expect(xml).toContain('<md:KeyDescriptor use="signing">');
    expect(xml).toContain('<md:KeyDescriptor use="encryption">');
    for (const binding of ['HTTP-Redirect', 'HTTP-POST']) {
      expect(xml).toContain(
        `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="${e2e.baseUrl}/saml/sso"/>`,
      );
      expect(xml).toContain(
        `<md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="${e2e.baseUrl}/saml/slo"/>`,
      );
    }
    const verified = await xmlsecVerify(xml, pki.idp.certPath);
    expect(verified).toEqual({ ok: true, output: expect.stringContaining('OK') });
    const forged = await xmlsecVerify(xml.replace('loa3-pnr', 'loa4-pnr'), pki.idp.certPath);
    expect(forged.ok).toBe(false);
  });

  it('should log in over HTTP-Redirect and answer a signed Response with loa3, a persistent pairwise NameID and the BankID profile attributes', async () => {
    const { sp, saml } = await registerSp();
    const { form, page } = await logIn(saml);
    expect(form.action).toBe(ACS);
    expect(form.fields.RelayState).toBe('relay-1');
    const xml = decodeBase64(form.fields.SAMLResponse);
    expect(await xmlsecVerify(xml, pki.idp.certPath)).toEqual({ ok: true, output: expect.stringContaining('OK') });

    const { profile } = await saml.validatePostResponseAsync(form.fields);
    expect(profile?.nameIDFormat).toBe('urn:oasis:names:tc:SAML:2.0:nameid-format:persistent');
    expect(profile?.nameID).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(profile?.[OID.personalIdentityNumber]).toBe('199001011239');
    expect(profile?.[OID.givenName]).toEqual(expect.any(String));
    expect(profile?.[OID.sn]).toEqual(expect.any(String));
    expect(profile?.[OID.displayName]).toEqual(expect.any(String));
    expect(profile?.[OID.dateOfBirth]).toBe('1990-01-01');
    expect(profile?.[OID.transactionIdentifier]).toBe(page.sessionId);
    expect(profile?.[OID.authServerSignature]).toEqual(expect.any(String));
    expect(profile?.[OID.userSignature]).toBeUndefined();
    expect(xml).toContain(`<saml:AuthnContextClassRef>${LOA3}</saml:AuthnContextClassRef>`);
    expect(xml).toMatch(new RegExp(`<saml:SubjectConfirmationData NotOnOrAfter="[^"]+" Recipient="${ACS}" InResponseTo="_`));
    expect(xml).toContain(`<saml:Audience>${sp.entityId}</saml:Audience>`);

    // The same person at the same SP is the same NameID; at another SP another one.
    const again = await saml.validatePostResponseAsync((await logIn(saml)).form.fields);
    expect(again.profile?.nameID).toBe(profile?.nameID);
    const other = await registerSp();
    const elsewhere = await other.saml.validatePostResponseAsync((await logIn(other.saml)).form.fields);
    expect(elsewhere.profile?.nameID).not.toBe(profile?.nameID);
  });

  it('should take a request over HTTP-POST and encrypt the assertion to an SP with an encryption certificate', async () => {
    const { saml } = await registerSp(
      { encryptionCertificate: pki.spEncryption.cert },
      // HTTP-POST carries the message without DEFLATE (SAML Bindings 3.5.4).
      { authnRequestBinding: 'HTTP-POST', skipRequestCompression: true, decryptionPvk: pki.spEncryption.key },
    );
    const requestForm = postForm(await saml.getAuthorizeFormAsync('relay-post', undefined, {}));
    const browser = new CookieBrowser();
    const posted = await browser.get(requestForm.action, { method: 'POST', body: new URLSearchParams(requestForm.fields) });
    expect(posted.status).toBe(303);
    const landed = await browser.follow(new URL(posted.headers.get('location')!, e2e.baseUrl).href, e2e.baseUrl);
    const page = readSamlLoginPage(landed.url, await landed.response!.text());
    await approveInSimulator(e2e.baseUrl, page);
    const form = postForm(await (await finishSamlLogin(browser, e2e.baseUrl, page.uid)).text());
    const xml = decodeBase64(form.fields.SAMLResponse);
    expect(xml).toContain('EncryptedAssertion');
    expect(xml).not.toContain('199001011239');
    expect(await xmlsecVerify(xml, pki.idp.certPath)).toEqual({ ok: true, output: expect.stringContaining('OK') });
    const { profile } = await saml.validatePostResponseAsync(form.fields);
    expect(profile?.[OID.personalIdentityNumber]).toBe('199001011239');
  });

  it('should make every SAML login an ordinary session: listed, and its webhook carries samlServiceProvider', async () => {
    await e2e.http
      .post('/api/v1/webhook-endpoints')
      .set('authorization', (await member()).bearer)
      .send({ url: receiver.url(), environment: 'test' })
      .expect(201);
    const { sp, saml } = await registerSp();
    const { page } = await logIn(saml);
    const [webhook] = await receiver.waitForRequests(1);
    const payload = JSON.parse(webhook.body) as { data: { sessionId: string; metadata?: Record<string, string> } };
    expect(payload.data.sessionId).toBe(page.sessionId);
    expect(payload.data.metadata).toEqual({ samlServiceProvider: sp.entityId });
    const listed = await e2e.http
      .post('/api/v1/sessions')
      .set('authorization', (await member()).bearer)
      .send({ startRow: 0, endRow: 10, filterModel: { sessionId: { filterType: 'text', type: 'equals', filter: page.sessionId } } })
      .expect(200);
    expect(listed.body.rows).toEqual([expect.objectContaining({ sessionId: page.sessionId, status: 'complete', provider: 'simulator' })]);
  });

  it('should make a SignMessage a sign session whose signature binds the SP and the request, and show a UserMessage', async () => {
    const text = 'Jag godkänner ansökan';
    const { sp, saml } = await registerSp(
      {},
      {
        samlAuthnRequestExtensions: {
          'csig:SignMessage': {
            '@xmlns:csig': 'http://id.elegnamnden.se/csig/1.1/dss-ext/ns',
            '@MimeType': 'text',
            '@MustShow': 'true',
            'csig:Message': Buffer.from(text).toString('base64'),
          },
        },
      },
    );
    const { form, page } = await logIn(saml);
    const { profile } = await saml.validatePostResponseAsync(form.fields);
    const signature = decodeBase64(String(profile?.[OID.userSignature]));
    expect(signature).toContain(Buffer.from(text).toString('base64'));
    const session = await e2e.http.post(`/api/v1/auth/${page.sessionId}/poll`).set('x-api-key', e2e.key).expect(200);
    expect(session.body.operation).toBe('sign');
    const requestId = /InResponseTo="([^"]+)"/.exec(decodeBase64(form.fields.SAMLResponse))![1];
    const bound = Buffer.from(`entityID=${encodeURIComponent(sp.entityId)};authnRequestID=${encodeURIComponent(requestId)}`).toString(
      'base64',
    );
    expect(signature).toContain(bound);

    const message = 'Logga in till **Kommunen**';
    const withMessage = await registerSp(
      {},
      {
        samlAuthnRequestExtensions: {
          'umsg:UserMessage': {
            '@xmlns:umsg': 'http://id.swedenconnect.se/authn/1.0/user-message/ns',
            '@MimeType': 'text/markdown',
            'umsg:Message': { '@xml:lang': 'sv', '#text': Buffer.from(message).toString('base64') },
          },
        },
      },
    );
    const login = await logIn(withMessage.saml);
    const evidence = await e2e.http.get(`/api/v1/auth/${login.page.sessionId}/evidence`).set('x-api-key', e2e.key).expect(200);
    expect(decodeBase64(JSON.stringify(evidence.body).match(/"signature":"([^"]+)"/)![1])).toContain(
      Buffer.from(message).toString('base64'),
    );
  });

  it('should answer the cancel button with Responder and the framework cancel status, signed', async () => {
    const { saml } = await registerSp();
    const browser = new CookieBrowser();
    const landed = await browser.follow(await saml.getAuthorizeUrlAsync('', undefined, {}), e2e.baseUrl);
    const page = readSamlLoginPage(landed.url, await landed.response!.text());
    const cancelled = await browser.get(`${e2e.baseUrl}/saml/login/${page.uid}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(200);
    const xml = decodeBase64(postForm(await cancelled.text()).fields.SAMLResponse);
    expect(statusOf(xml)).toEqual(['urn:oasis:names:tc:SAML:2.0:status:Responder', 'http://id.elegnamnden.se/status/1.0/cancel']);
    expect(await xmlsecVerify(xml, pki.idp.certPath)).toEqual({ ok: true, output: expect.stringContaining('OK') });
    // The login is answered once: another tab's cancel or end finds nothing.
    expect((await browser.get(`${e2e.baseUrl}/saml/login/${page.uid}/done`)).status).toBe(400);
  });

  it('should keep the login page to the browser that sent the request', async () => {
    const { saml } = await registerSp();
    const landed = await new CookieBrowser().follow(await saml.getAuthorizeUrlAsync('', undefined, {}), e2e.baseUrl);
    expect(landed.url).toContain('/saml/login/');
    const stranger = await new CookieBrowser().get(landed.url);
    expect(stranger.status).toBe(400);
    expect(await stranger.text()).not.toContain('<eid-qr');
  });

  describe('refusals: an error Response (Requester) at a registered ACS or a page, never a login', () => {
    const refusedWith = async (url: string, reason: string) => {
      const answer = await answerTo(url);
      expect(answer.status).toBe(200);
      const form = postForm(answer.html);
      expect(form.action).toBe(ACS);
      const xml = decodeBase64(form.fields.SAMLResponse);
      expect(statusOf(xml)).toEqual(['urn:oasis:names:tc:SAML:2.0:status:Requester']);
      expect(xml).toContain(reason);
      expect(xml).not.toContain('<saml:Assertion');
      expect(await xmlsecVerify(xml, pki.idp.certPath)).toEqual({ ok: true, output: expect.stringContaining('OK') });
    };

    it('should refuse an unsigned AuthnRequest', async () => {
      const { sp } = await registerSp();
      const unsigned = samlClient(e2e.baseUrl, pki, { issuer: sp.entityId, privateKey: undefined });
      await refusedWith(await unsigned.getAuthorizeUrlAsync('', undefined, {}), 'not signed');
    });

    it('should refuse an AuthnRequest signed with a key other than the registered one', async () => {
      const { sp } = await registerSp();
      const forger = samlClient(e2e.baseUrl, pki, { issuer: sp.entityId, privateKey: pki.stranger.key });
      await refusedWith(await forger.getAuthorizeUrlAsync('', undefined, {}), 'does not verify');
    });

    it('should refuse an AuthnRequest for another Destination', async () => {
      const { sp } = await registerSp();
      const elsewhere = samlClient(e2e.baseUrl, pki, { issuer: sp.entityId, entryPoint: 'https://idp.elsewhere.test/saml/sso' });
      const url = new URL(await elsewhere.getAuthorizeUrlAsync('', undefined, {}));
      await refusedWith(`${e2e.baseUrl}/saml/sso${url.search}`, 'another Destination');
    });

    it('should refuse a replayed AuthnRequest ID', async () => {
      const { saml } = await registerSp();
      const url = await saml.getAuthorizeUrlAsync('', undefined, {});
      expect((await answerTo(url)).status).toBe(303);
      await refusedWith(url, 'used before');
    });

    it('should refuse an IssueInstant more than 5 minutes off', async () => {
      const { saml } = await registerSp();
      const url = await saml.getAuthorizeUrlAsync('', undefined, {});
      e2e.clock.advance(6 * 60_000);
      try {
        await refusedWith(url, 'IssueInstant');
      } finally {
        e2e.clock.advance(-6 * 60_000);
      }
    });

    it('should answer an unregistered ACS and an unknown SP with a page, sending nothing anywhere', async () => {
      const { sp } = await registerSp();
      const wrongAcs = samlClient(e2e.baseUrl, pki, { issuer: sp.entityId, callbackUrl: 'https://attacker.example.test/acs' });
      const page = await answerTo(await wrongAcs.getAuthorizeUrlAsync('', undefined, {}));
      expect(page.status).toBe(400);
      expect(page.html).toContain('AssertionConsumerServiceURL');
      expect(page.html).not.toContain('SAMLResponse');
      const unknown = samlClient(e2e.baseUrl, pki, { issuer: 'https://unknown.example.test' });
      expect((await answerTo(await unknown.getAuthorizeUrlAsync('', undefined, {}))).status).toBe(400);
    });

    it('should refuse a signed request wrapped inside a forged one (HTTP-POST)', async () => {
      const { sp } = await registerSp();
      const client = samlClient(e2e.baseUrl, pki, { issuer: sp.entityId, authnRequestBinding: 'HTTP-POST', skipRequestCompression: true });
      const signed = decodeBase64(postForm(await client.getAuthorizeFormAsync('', undefined, {})).fields.SAMLRequest);
      const signature = /<(\w+:)?Signature[\s\S]*<\/(\w+:)?Signature>/.exec(signed)![0];
      const inner = signed.replace(signature, '');
      const forged =
        `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
        `ID="_forged" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${e2e.baseUrl}/saml/sso" ` +
        `AssertionConsumerServiceURL="${ACS}"><saml:Issuer>${sp.entityId}</saml:Issuer>${signature}` +
        `<samlp:Extensions>${inner.replace(/^<\?xml[^>]*>/, '')}</samlp:Extensions></samlp:AuthnRequest>`;
      const response = await new CookieBrowser().get(`${e2e.baseUrl}/saml/sso`, {
        method: 'POST',
        body: new URLSearchParams({ SAMLRequest: Buffer.from(forged).toString('base64') }),
      });
      const xml = decodeBase64(postForm(await response.text()).fields.SAMLResponse);
      expect(statusOf(xml)).toEqual(['urn:oasis:names:tc:SAML:2.0:status:Requester']);
      expect(xml).toContain('InResponseTo="_forged"');
      expect(xml).toContain('does not sign the request itself');
    });

    it('should refuse a document type declaration before any parser sees it', async () => {
      const xml = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><samlp:AuthnRequest/>';
      const response = await e2e.http
        .post('/saml/sso')
        .type('form')
        .send({ SAMLRequest: Buffer.from(xml).toString('base64') });
      expect(response.status).toBe(400);
      expect(response.text).not.toContain('root:');
    });
  });

  it('should answer a signed LogoutRequest with a signed LogoutResponse at the SP', async () => {
    const sloUrl = 'https://sp.example.test/saml/slo';
    const { saml } = await registerSp({ singleLogoutUrl: sloUrl }, { logoutUrl: `${e2e.baseUrl}/saml/slo` });
    const url = await saml.getLogoutUrlAsync(
      { nameID: 'someone', nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent', issuer: '', sessionIndex: '' },
      'relay-out',
      {},
    );
    const answer = await answerTo(url);
    const form = postForm(answer.html);
    expect(form.action).toBe(sloUrl);
    const xml = decodeBase64(form.fields.SAMLResponse);
    expect(xml).toContain('<samlp:LogoutResponse');
    expect(statusOf(xml)).toEqual(['urn:oasis:names:tc:SAML:2.0:status:Success']);
    expect(await xmlsecVerify(xml, pki.idp.certPath)).toEqual({ ok: true, output: expect.stringContaining('OK') });
  });
});
