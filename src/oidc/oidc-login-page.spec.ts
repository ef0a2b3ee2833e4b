import { loginChoicePage, loginPage } from './oidc-login-page.js';

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
});
