import { LANGUAGES } from '../../common/languages/languages.js';
import { chooserPage, loginChoicePage, loginPage, returnHostOf } from './oidc-login-page.js';
import { LOGIN_TEXT } from './oidc-login-texts.js';

describe('OIDC login page', () => {
  const common = {
    language: 'en' as const,
    uid: 'uid-1',
    clientName: 'Shop <Inc>',
    redirectHost: 'shop.example:8443',
    operation: 'auth' as const,
    assetVersion: 'v1',
  };

  it('should name the client and, escaped, the host the browser returns to', () => {
    const html = loginChoicePage({ ...common, redirectHost: '<b>evil', devices: ['this', 'other'], redirects: false });
    expect(html).toContain('Shop &lt;Inc&gt;');
    expect(html).toContain('Afterwards you are sent to &lt;b&gt;evil.');
    expect(html).not.toContain('<b>evil');
  });

  it('should offer only the devices given, as buttons of a form that starts the login, and no script', () => {
    const html = loginChoicePage({ ...common, devices: ['other'], redirects: false });
    expect(html).toContain('<form method="post" action="/oidc/interaction/uid-1/start"');
    expect(html).toContain('name="device" value="other"');
    expect(html).not.toContain('value="this"');
    expect(html).not.toMatch(/<script|<eid-qr/);
  });

  it("should offer an upstream's own login as one button that goes there", () => {
    const html = loginChoicePage({ ...common, devices: ['this'], redirects: true });
    expect(html).toContain(`name="device" value="this" class="start">Continue to the e-ID's login</button>`);
    expect(html).not.toContain('Open the app');
  });

  it('should pin <eid-qr> to the chosen device and say where to go on while it waits for the return', () => {
    const waiting = loginPage({ ...common, sessionId: 's-1', kioskToken: 't', device: 'this', awaitReturn: true });
    expect(waiting).toContain('device="this"');
    expect(waiting).toContain('data-await-return');
    expect(waiting).toContain('Carry on in the browser the app opens.');
    const qr = loginPage({ ...common, sessionId: 's-1', kioskToken: 't', device: 'other', awaitReturn: false });
    expect(qr).toContain('device="other"');
    expect(qr).not.toContain('data-await-return');
    expect(loginPage({ ...common, sessionId: 's-1', kioskToken: 't', awaitReturn: false })).not.toContain('device=');
  });

  it('should list each e-ID as a button of the pick form: its name and, from this origin, its logo, all escaped', () => {
    const html = chooserPage({
      ...common,
      entries: [
        { acr: 'urn:grn:authn:no:bankid', name: 'BankID (Norge)', logo: '/brand/nbid.svg' },
        { acr: 'urn:x:"q"', name: '<MitID>' },
      ],
    });
    expect(html).toContain('<form method="post" action="/oidc/interaction/uid-1/pick"');
    expect(html).toContain('name="acr" value="urn:grn:authn:no:bankid" class="eid"><img src="/brand/nbid.svg" alt=""');
    expect(html).toContain('<span>BankID (Norge)</span>');
    expect(html).toContain('value="urn:x:&quot;q&quot;" class="eid"><span>&lt;MitID&gt;</span>');
    expect(html).toContain('Choose the e-ID you want to use.');
    expect(html).not.toMatch(/<script|style=/);
  });
});

describe('OIDC login texts', () => {
  const keys = Object.keys(LOGIN_TEXT.sv).sort();
  it.each(LANGUAGES)('should have every text in %s, each its own', (language) => {
    const text = LOGIN_TEXT[language];
    expect(Object.keys(text).sort()).toEqual(keys);
    for (const key of keys) {
      const value = text[key as keyof typeof text];
      const said = typeof value === 'function' ? value('X') : value;
      expect(said.trim()).not.toBe('');
      // Not left in another language: a text differs from the English one, except a name such as "e-ID".
      if (language !== 'en' && key !== 'signHeading') expect({ key, said }).not.toEqual({ key, said: sayEnglish(key) });
    }
  });
  const sayEnglish = (key: string) => {
    const value = LOGIN_TEXT.en[key as keyof typeof LOGIN_TEXT.en];
    return typeof value === 'function' ? value('X') : value;
  };
});

describe(returnHostOf.name, () => {
  it('should name the host, port included, of the URL a login returns to, and nothing for what is no URL', () => {
    expect(returnHostOf('https://rp.example.se:8443/callback?x=1')).toBe('rp.example.se:8443');
    expect(returnHostOf('https://sp.example.fi/saml/acs')).toBe('sp.example.fi');
    for (const notUrl of [undefined, '', '/relative', 'not a url']) expect(returnHostOf(notUrl)).toBe('');
  });
});
