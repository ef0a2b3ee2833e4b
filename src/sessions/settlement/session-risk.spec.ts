import type { SessionTransition } from '../session-state.js';
import { heldToMaxRisk } from './session-risk.js';

const completed = (risk?: 'low' | 'moderate' | 'high'): SessionTransition => ({
  kind: 'complete',
  completion: { user: { personalNumber: '199001011239', name: 'T T', givenName: 'T', surname: 'T' }, ...(risk ? { risk } : {}) },
});

describe('heldToMaxRisk', () => {
  it('fails a completion above the maximum with riskTooHigh and no completion', () => {
    expect(heldToMaxRisk({ maxRisk: 'moderate' }, completed('high'))).toEqual({ kind: 'fail', hintCode: 'riskTooHigh' });
    expect(heldToMaxRisk({ maxRisk: 'low' }, completed('moderate'))).toEqual({ kind: 'fail', hintCode: 'riskTooHigh' });
  });

  it('lets completions at or below the maximum, without a risk, or without a maximum through', () => {
    expect(heldToMaxRisk({ maxRisk: 'moderate' }, completed('moderate')).kind).toBe('complete');
    expect(heldToMaxRisk({ maxRisk: 'low' }, completed('low')).kind).toBe('complete');
    expect(heldToMaxRisk({ maxRisk: 'low' }, completed()).kind).toBe('complete');
    expect(heldToMaxRisk({ maxRisk: null }, completed('high')).kind).toBe('complete');
  });

  it('leaves other transitions alone', () => {
    expect(heldToMaxRisk({ maxRisk: 'low' }, { kind: 'fail', hintCode: 'userCancel' })).toEqual({ kind: 'fail', hintCode: 'userCancel' });
  });
});
