import { ValidationProblemException } from '../../common/problem-details/validation-problem.exception.js';
import type { StartOrderRequest } from '../eid-provider.js';
import { authRequestBody, collectResult, FAILED_HINT_CODES, PENDING_HINT_CODES } from './bankid-order.js';

const base: StartOrderRequest = { environment: 'test', endUserIp: '192.0.2.10' };

function fieldErrors(request: StartOrderRequest): string[] {
  try {
    authRequestBody(request);
    return [];
  } catch (error) {
    if (error instanceof ValidationProblemException) return error.errors.map((e) => e.pointer);
    throw error;
  }
}

describe(authRequestBody.name, () => {
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
    const requirement = { pinCode: true, mrtd: false, cardReader: 'class2', certificatePolicies: ['1.2.752.78.1.5'], personalNumber: '199001012393' };
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

describe(collectResult.name, () => {
  it.each(PENDING_HINT_CODES.map((hintCode) => [hintCode]))('should keep pending hint code %s', (hintCode) => {
    expect(collectResult({ orderRef: 'o', status: 'pending', hintCode })).toEqual({ status: 'pending', hintCode });
  });

  it.each(FAILED_HINT_CODES.map((hintCode) => [hintCode]))('should keep failed hint code %s', (hintCode) => {
    expect(collectResult({ orderRef: 'o', status: 'failed', hintCode })).toEqual({ status: 'failed', hintCode });
  });

  it('should pass an unknown hint code through as it is', () => {
    expect(collectResult({ orderRef: 'o', status: 'pending', hintCode: 'userFace' })).toEqual({ status: 'pending', hintCode: 'userFace' });
  });

  it('should split completionData into the identity, the device and the evidence', () => {
    const user = { personalNumber: '190000000000', name: 'Karl Karlsson', givenName: 'Karl', surname: 'Karlsson' };
    expect(
      collectResult({
        orderRef: 'o',
        status: 'complete',
        completionData: {
          user,
          device: { ipAddress: '192.168.0.1', uhi: 'OZvYM9Vv' },
          bankIdIssueDate: '2020-02-01',
          stepUp: { mrtd: true },
          signature: 'c2ln',
          ocspResponse: 'b2NzcA==',
          risk: 'moderate',
        },
      }),
    ).toEqual({
      status: 'complete',
      completion: {
        user,
        device: { ipAddress: '192.168.0.1', uhi: 'OZvYM9Vv' },
        evidence: { bankIdIssueDate: '2020-02-01', stepUp: { mrtd: true }, signature: 'c2ln', ocspResponse: 'b2NzcA==', risk: 'moderate' },
      },
    });
  });

  it('should leave out what BankID did not send (no risk without returnRisk, no uhi)', () => {
    const user = { personalNumber: '190000000000', name: 'A B', givenName: 'A', surname: 'B' };
    expect(collectResult({ orderRef: 'o', status: 'complete', completionData: { user, device: { ipAddress: '::1' } } })).toEqual({
      status: 'complete',
      completion: { user, device: { ipAddress: '::1' } },
    });
  });
});
