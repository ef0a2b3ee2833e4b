import { simulatorAppPage } from './simulator-app-page.js';

const TOKEN = '3f1c1b9e-8a47-4c5e-9b1d-2f6a7c0e4d21';

describe(simulatorAppPage.name, () => {
  it('should name the host the answer sends the browser to, before the tap', () => {
    const page = simulatorAppPage('waiting', { autoStartToken: TOKEN, returnHost: 'shop.example:8443' });
    expect(page).toContain('<p class="destination" id="destination">Afterwards you return to <strong>shop.example:8443</strong>.</p>');
    expect(page).toContain(`name="autostarttoken" value="${TOKEN}"`);
  });

  it('should escape the host and say nothing of a destination when the order has no returnUrl', () => {
    expect(simulatorAppPage('waiting', { autoStartToken: TOKEN, returnHost: '<b>x' })).toContain('<strong>&lt;b&gt;x</strong>');
    const page = simulatorAppPage('waiting', { autoStartToken: TOKEN });
    expect(page).not.toContain('id="destination"');
    expect(page).toContain('id="approve"');
  });

  it('should show no form and no destination on a used or unknown order', () => {
    const page = simulatorAppPage('gone');
    expect(page).not.toContain('<form');
    expect(page).not.toContain('id="destination"');
  });

  it('should offer "Show ID card" at home, and show a card with its code, its holder and until when it may be verified', () => {
    expect(simulatorAppPage('home', undefined, { personalNumber: '199001011239' })).toContain('id="show-idcard"');
    const card = { name: 'Tess <Testsson>', qrCode: 'BANKIDF.x', qrSvg: '<svg></svg>', expiresAt: new Date('2026-12-07T09:00:30Z') };

    const page = simulatorAppPage('idcard', undefined, { card, personalNumber: '199001011239' });

    expect(page).toContain('data-qr-code="BANKIDF.x"');
    expect(page).toContain('<strong>Tess &lt;Testsson&gt;</strong>');
    expect(page).toContain('<time datetime="2026-12-07T09:00:30.000Z">09:00:30 UTC</time>');
  });
});
