import { FAILED_HINT_CODES, PENDING_HINT_CODES } from './bankid-order.js';
import { readCollect } from './bankid-collect.js';

const user = { personalNumber: '190000000000', name: 'Karl Karlsson', givenName: 'Karl', surname: 'Karlsson' };
const complete = (completionData: unknown) => readCollect({ orderRef: 'o', status: 'complete', completionData });

describe(readCollect.name, () => {
  it.each([...PENDING_HINT_CODES.map((h) => ['pending', h] as const), ...FAILED_HINT_CODES.map((h) => ['failed', h] as const)])(
    'should keep %s hint code %s',
    (status, hintCode) => {
      expect(readCollect({ orderRef: 'o', status, hintCode })).toEqual({ kind: 'result', result: { status, hintCode }, dropped: [] });
    },
  );

  it('should pass an unknown hint code through as it is, and drop one that is not text', () => {
    expect(readCollect({ orderRef: 'o', status: 'pending', hintCode: 'userFace' })).toMatchObject({
      result: { status: 'pending', hintCode: 'userFace' },
    });
    expect(readCollect({ orderRef: 'o', status: 'pending', hintCode: 7 })).toEqual({
      kind: 'result',
      result: { status: 'pending' },
      dropped: ['hintCode (a number)'],
    });
  });

  it('should split completionData into the identity, the device and the evidence', () => {
    expect(
      complete({
        user,
        device: { ipAddress: '192.168.0.1', uhi: 'OZvYM9Vv' },
        bankIdIssueDate: '2020-02-01',
        stepUp: { mrtd: true },
        signature: 'c2ln',
        ocspResponse: 'b2NzcA==',
        risk: 'moderate',
      }),
    ).toEqual({
      kind: 'result',
      dropped: [],
      result: {
        status: 'complete',
        completion: {
          user,
          device: { ipAddress: '192.168.0.1', uhi: 'OZvYM9Vv' },
          evidence: {
            bankIdIssueDate: '2020-02-01',
            stepUp: { mrtd: true },
            signature: 'c2ln',
            ocspResponse: 'b2NzcA==',
            risk: 'moderate',
          },
          // The documented level, held against a key's maxRisk (docs/bankid.md, "Risk").
          risk: 'moderate',
        },
      },
    });
  });

  it('should keep an undocumented risk level as evidence only, never as the level a key is held to', () => {
    const reading = complete({ user, risk: 'extreme' });
    expect(reading).toMatchObject({ result: { completion: { evidence: { risk: 'extreme' } } } });
    expect(reading.kind === 'result' && reading.result.completion).not.toHaveProperty('risk');
  });

  it('should leave out what BankID did not send (no risk without returnRisk, no uhi)', () => {
    expect(complete({ user, device: { ipAddress: '::1' } })).toMatchObject({
      result: { status: 'complete', completion: { user, device: { ipAddress: '::1' } } },
    });
  });

  it('should take stepUp as it comes and drop optional fields in another shape, naming them', () => {
    const reading = complete({
      user,
      stepUp: false,
      device: { ipAddress: 4, uhi: 'u' },
      risk: { level: 'low' },
      signature: 'c2ln',
      somethingNew: [1],
    });
    expect(reading).toEqual({
      kind: 'result',
      dropped: ['completionData.device.ipAddress (a number)', 'completionData.risk (a object)'],
      result: { status: 'complete', completion: { user, device: { uhi: 'u' }, evidence: { signature: 'c2ln', stepUp: false } } },
    });
  });

  it.each([
    [undefined, 'completionData is missing'],
    ['x', 'completionData is a string'],
    [{ device: {} }, 'completionData.user is missing'],
    [{ user: { ...user, name: null } }, 'completionData.user.name is null'],
    [{ user: { ...user, personalNumber: '19000000' } }, 'completionData.user.personalNumber is not 12 digits'],
  ])('should call a complete answer with completionData %j unusable', (completionData, problem) => {
    expect(complete(completionData)).toEqual({ kind: 'unusable', problems: [problem] });
  });
});
