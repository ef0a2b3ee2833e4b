import { ValidationProblemException } from '../../common/problem-details/validation-problem.exception.js';
import type { StartOrderRequest } from '../eid-provider.js';
import { orderRequest } from './bankid-order.js';

const base: StartOrderRequest = { environment: 'test', operation: 'auth', channel: 'app', endUserIp: '192.0.2.10' };
const signing: StartOrderRequest = { ...base, operation: 'sign', userVisibleData: 'I agree' };
const phone: StartOrderRequest = {
  environment: 'test',
  operation: 'auth',
  channel: 'phone',
  personalNumber: '199001012393',
  callInitiator: 'RP',
};
const authRequestBody = (request: StartOrderRequest) => orderRequest(request).body;
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

function fieldErrors(request: StartOrderRequest): string[] {
  try {
    orderRequest(request);
    return [];
  } catch (error) {
    if (error instanceof ValidationProblemException) return error.errors.map((e) => e.pointer);
    throw error;
  }
}

describe(`${orderRequest.name} (auth)`, () => {
  it('should send the end-user IP and ask for the risk indication', () => {
    expect(authRequestBody(base)).toEqual({ endUserIp: '192.0.2.10', returnRisk: true });
  });

  it('should base64-encode userVisibleData as UTF-8, plaintext unless told otherwise', () => {
    expect(authRequestBody({ ...base, userVisibleData: 'Logga in på Exempel AB' })).toMatchObject({
      userVisibleData: Buffer.from('Logga in på Exempel AB', 'utf8').toString('base64'),
      userVisibleDataFormat: 'plaintext',
    });
    expect(authRequestBody({ ...base, userVisibleData: '# Hej', userVisibleDataFormat: 'simpleMarkdownV1' })).toMatchObject({
      userVisibleDataFormat: 'simpleMarkdownV1',
    });
  });

  it('should pass every v6.0 requirement and the returnUrl through', () => {
    const requirement = {
      pinCode: true,
      mrtd: false,
      cardReader: 'class2',
      certificatePolicies: ['1.2.752.78.1.5'],
      personalNumber: '199001012393',
    };
    expect(authRequestBody({ ...base, requirement, returnUrl: 'https://rp.example/r?n=1' })).toEqual({
      endUserIp: '192.0.2.10',
      requirement,
      returnUrl: 'https://rp.example/r?n=1',
      returnRisk: true,
    });
  });

  it.each([
    [{ allowFingerprint: true }, '/requirement/allowFingerprint'],
    [{ pinCode: 'yes' }, '/requirement/pinCode'],
    [{ cardReader: 'class3' }, '/requirement/cardReader'],
    [{ certificatePolicies: [] }, '/requirement/certificatePolicies'],
    [{ certificatePolicies: ['not an oid'] }, '/requirement/certificatePolicies'],
    [{ personalNumber: '9001012393' }, '/requirement/personalNumber'],
    // names of Object.prototype are not rules (they once threw a TypeError: a 502)
    [{ hasOwnProperty: 1 }, '/requirement/hasOwnProperty'],
    [{ constructor: 1 }, '/requirement/constructor'],
    [JSON.parse('{"__proto__": 1}') as Record<string, unknown>, '/requirement/__proto__'],
  ])('should refuse requirement %j', (requirement, pointer) => {
    expect(fieldErrors({ ...base, requirement })).toEqual([pointer]);
  });

  it('should hold userVisibleData to 1,500 characters after base64 encoding', () => {
    expect(fieldErrors({ ...base, userVisibleData: 'a'.repeat(1125) })).toEqual([]);
    expect(fieldErrors({ ...base, userVisibleData: 'a'.repeat(1126) })).toEqual(['/userVisibleData']);
  });
});

describe(`${orderRequest.name} (sign and phone)`, () => {
  it('should call sign with the text and the hidden data, and the risk indication', () => {
    expect(orderRequest({ ...signing, userNonVisibleData: 'aGlkZGVu', userVisibleDataFormat: 'simpleMarkdownV1' })).toEqual({
      path: 'sign',
      body: {
        endUserIp: '192.0.2.10',
        userVisibleData: base64('I agree'),
        userVisibleDataFormat: 'simpleMarkdownV1',
        userNonVisibleData: 'aGlkZGVu',
        returnRisk: true,
      },
    });
  });

  it('should hold sign text to 40,000 characters after base64 encoding, and require it', () => {
    expect(fieldErrors({ ...signing, userVisibleData: 'a'.repeat(30_000) })).toEqual([]);
    expect(fieldErrors({ ...signing, userVisibleData: 'a'.repeat(30_001) })).toEqual(['/userVisibleData']);
    expect(fieldErrors({ ...signing, userVisibleData: undefined })).toEqual(['/userVisibleData']);
  });

  it('should hold userNonVisibleData to 200,000 characters and to sign orders', () => {
    expect(fieldErrors({ ...signing, userNonVisibleData: 'A'.repeat(200_000) })).toEqual([]);
    expect(fieldErrors({ ...signing, userNonVisibleData: 'A'.repeat(200_004) })).toEqual(['/userNonVisibleData']);
    expect(fieldErrors({ ...base, userNonVisibleData: 'AAAA' })).toEqual(['/userNonVisibleData']);
  });

  it('should call phone/auth with the personal number and the call initiator, without an IP or risk', () => {
    expect(orderRequest({ ...phone, userVisibleData: 'Hej' })).toEqual({
      path: 'phone/auth',
      body: { personalNumber: '199001012393', callInitiator: 'RP', userVisibleData: base64('Hej'), userVisibleDataFormat: 'plaintext' },
    });
  });

  it('should call phone/sign for a phone signature', () => {
    expect(
      orderRequest({ ...phone, operation: 'sign', callInitiator: 'user', userVisibleData: 'Avtal', requirement: { pinCode: true } }),
    ).toEqual({
      path: 'phone/sign',
      body: {
        personalNumber: '199001012393',
        callInitiator: 'user',
        requirement: { pinCode: true },
        userVisibleData: base64('Avtal'),
        userVisibleDataFormat: 'plaintext',
      },
    });
  });

  it('should refuse what a phone order cannot carry or lacks', () => {
    expect(fieldErrors({ ...phone, requirement: { mrtd: true } })).toEqual(['/requirement/mrtd']);
    expect(fieldErrors({ ...phone, personalNumber: undefined, callInitiator: undefined })).toEqual(['/personalNumber', '/callInitiator']);
  });
});
