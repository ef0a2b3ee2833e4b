import { walletLink } from '../openid4vp-request.js';
import { simulatorWalletPage } from './simulator-wallet-page.js';
import { requestIdOf } from './simulator-wallet.service.js';

describe('the simulator wallet', () => {
  const prefix = 'https://gw.example/openid4vp/request/';
  const id = '0b7c4f0e-3f0b-4c55-9a4e-2f3b8c1d9e01';

  it('should open only links whose request_uri is this service’s', () => {
    expect(requestIdOf(walletLink('x509_san_dns:gw.example', `${prefix}${id}`), prefix)).toBe(id);
    expect(requestIdOf(walletLink('x509_san_dns:evil.example', `https://evil.example/openid4vp/request/${id}`), prefix)).toBeNull();
    expect(requestIdOf(`https://gw.example/?request_uri=${prefix}${id}`, prefix)).toBeNull();
    expect(requestIdOf(walletLink('x509_san_dns:gw.example', `${prefix}../../admin`), prefix)).toBeNull();
    expect(requestIdOf('not a link', prefix)).toBeNull();
  });

  it('should escape what the verifier and the visitor put on the page', () => {
    const page = simulatorWalletPage('consent', 'en', {
      request: { link: '"><script>x</script>', verifierName: '<b>RP</b>', verifierHost: 'gw.example', claims: ['<img>'] },
    });
    expect(page).not.toMatch(/<script>|<b>|<img>/);
    expect(page).toContain('&lt;b&gt;RP&lt;/b&gt;');
  });
});
