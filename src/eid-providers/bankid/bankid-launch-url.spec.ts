import { bankIdLaunchUrl } from './bankid-launch-url.js';

describe(bankIdLaunchUrl.name, () => {
  it('should build the universal link with the autostart token and no redirect', () => {
    expect(bankIdLaunchUrl('7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6')).toBe(
      'https://app.bankid.com/?autostarttoken=7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6&redirect=null',
    );
  });

  it('should keep a token with URL characters inside its parameter', () => {
    expect(new URL(bankIdLaunchUrl('a&b=c')).searchParams.get('autostarttoken')).toBe('a&b=c');
  });
});
