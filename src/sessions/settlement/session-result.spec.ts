import type { Session } from '../session.entity.js';
import { sessionResult, signedTextsOf } from './session-result.js';

const USER = { personalNumber: '198507099805', name: 'Anna Andersson', givenName: 'Anna', surname: 'Andersson' };
const session = (overrides: Partial<Session> = {}): Session =>
  ({
    id: 'b5e0f8d3-6c2a-4d4f-8e3b-2a1f9c8d7e6b',
    teamId: 'a4d9e7c2-5b1f-4c3e-9d2a-1f0e8b7c6d5a',
    environment: 'test',
    provider: 'simulator',
    operation: 'auth',
    channel: 'app',
    status: 'complete',
    hintCode: null,
    completedAt: new Date('2026-11-24T04:00:00.000Z'),
    ...overrides,
  }) as Session;

describe('signedTextsOf', () => {
  it('should encode the visible text as the providers send it, and keep non-visible data as given', () => {
    expect(signedTextsOf({ userVisibleData: 'Logga in på Exempel' })).toEqual({
      userVisibleData: Buffer.from('Logga in på Exempel', 'utf8').toString('base64'),
    });
    expect(signedTextsOf({ userNonVisibleData: 'AAEC' })).toEqual({ userNonVisibleData: 'AAEC' });
    expect(signedTextsOf({})).toEqual({});
  });
});

describe('sessionResult', () => {
  it('should state a complete session with its user, device and signature, of an identification in the app', () => {
    expect(sessionResult(session(), { user: USER, device: { ipAddress: '192.0.2.1' } }, 'c2ln')).toEqual({
      teamId: 'a4d9e7c2-5b1f-4c3e-9d2a-1f0e8b7c6d5a',
      sessionId: 'b5e0f8d3-6c2a-4d4f-8e3b-2a1f9c8d7e6b',
      environment: 'test',
      provider: 'simulator',
      operation: 'auth',
      channel: 'app',
      status: 'complete',
      user: USER,
      device: { ipAddress: '192.0.2.1' },
      completedAt: new Date('2026-11-24T04:00:00.000Z'),
      signature: 'c2ln',
    });
  });

  it("should state an age-only session's age answer in place of user and device, with its signature's binding", () => {
    const ageVerification = { ageOver: 18, result: true, country: 'SE', source: 'personal-number' } as const;
    const result = sessionResult(session({ ageOver: 18 }), { ageVerification }, 'c2ln');
    expect(result).toMatchObject({ status: 'complete', ageVerification, signature: 'c2ln' });
    expect(result).not.toHaveProperty('user');
    expect(result).not.toHaveProperty('device');
  });

  it('should state a failed session with its hint code and no user, and read operation and channel from the session', () => {
    const failed = session({ status: 'failed', hintCode: 'userCancel', operation: 'sign', channel: 'phone' });
    expect(sessionResult(failed, null, undefined)).toEqual({
      teamId: 'a4d9e7c2-5b1f-4c3e-9d2a-1f0e8b7c6d5a',
      sessionId: 'b5e0f8d3-6c2a-4d4f-8e3b-2a1f9c8d7e6b',
      environment: 'test',
      provider: 'simulator',
      operation: 'sign',
      channel: 'phone',
      status: 'failed',
      hintCode: 'userCancel',
      completedAt: new Date('2026-11-24T04:00:00.000Z'),
    });
  });
});
