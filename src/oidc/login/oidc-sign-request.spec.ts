import { promptAllowsSigning, signOrderOf } from './oidc-sign-request.js';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const TBS = b64('sha256 of the contract');
const request = (signMessage: object, tbs: unknown = TBS) => JSON.stringify({ tbs_data: tbs, sign_message: signMessage });

describe('signOrderOf', () => {
  it('should read the sign message in the page language from base64, and pass tbs_data on as the unseen data', () => {
    const param = request({ message: { sv: b64('Jag godkänner avtalet'), en: b64('I accept the contract') }, mime_type: 'text/plain' });
    expect(signOrderOf(param, 'en')).toEqual({ order: { userVisibleData: 'I accept the contract', userNonVisibleData: TBS } });
    expect(signOrderOf(param, undefined)).toEqual({ order: { userVisibleData: 'Jag godkänner avtalet', userNonVisibleData: TBS } });
  });

  it('should take an untagged message and message#sv members, and markdown as BankID simple markdown', () => {
    expect(signOrderOf(request({ message: b64('Avtal') }), 'sv')).toMatchObject({ order: { userVisibleData: 'Avtal' } });
    expect(signOrderOf(request({ 'message#sv': b64('Avtal'), mime_type: 'text/markdown' }), 'sv')).toEqual({
      order: { userVisibleData: 'Avtal', userNonVisibleData: TBS, userVisibleDataFormat: 'simpleMarkdownV1' },
    });
  });

  it.each([
    ['no parameter', undefined, 'needs'],
    ['not JSON', '{tbs', 'JSON'],
    ['no tbs_data', JSON.stringify({ sign_message: { message: b64('x') } }), 'tbs_data'],
    ['tbs_data not base64', request({ message: b64('x') }, 'not base64!'), 'tbs_data'],
    ['tbs_data too long', request({ message: b64('x') }, 'A'.repeat(200_004)), 'tbs_data'],
    ['no sign_message', JSON.stringify({ tbs_data: TBS }), 'sign_message is required'],
    ['a message that is not base64', request({ message: 'Jag godkänner' }), 'base64'],
    ['a message that is not UTF-8', request({ message: Buffer.from([0xff, 0xfe, 0xfd]).toString('base64') }), 'UTF-8'],
    ['an unknown MIME type', request({ message: b64('x'), mime_type: 'text/html' }), 'mime_type'],
    ['a message too long for BankID', request({ message: b64('a'.repeat(30_001)) }), '40000'],
  ])('should refuse %s', (_case, param, words) => {
    const result = signOrderOf(param, 'sv');
    expect('problem' in result && result.problem).toContain(words);
  });
});

describe('promptAllowsSigning', () => {
  it('should want both login and consent', () => {
    expect(promptAllowsSigning('login consent')).toBe(true);
    expect(promptAllowsSigning('consent login')).toBe(true);
    expect(promptAllowsSigning('login')).toBe(false);
    expect(promptAllowsSigning(undefined)).toBe(false);
  });
});
