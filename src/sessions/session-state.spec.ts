import type { CollectResult } from '../eid-providers/eid-provider.js';
import { transitionAfterCollect, type SessionSnapshot } from './session-state.js';

const NOW = new Date('2026-11-21T10:01:00.000Z');
const LATER = new Date('2026-11-21T10:03:00.000Z');
const identity = { user: { personalNumber: '199001011239', name: 'Tess Testsson', givenName: 'Tess', surname: 'Testsson' } };
const pending = (hintCode: string | null = 'outstandingTransaction'): SessionSnapshot => ({
  status: 'pending',
  hintCode,
  expiresAt: LATER,
});

describe(transitionAfterCollect.name, () => {
  it.each<[string, SessionSnapshot, CollectResult | null, Date, ReturnType<typeof transitionAfterCollect>]>([
    ['same hint: nothing to write', pending(), { status: 'pending', hintCode: 'outstandingTransaction' }, NOW, { kind: 'none' }],
    ['new pending hint', pending(), { status: 'pending', hintCode: 'userSign' }, NOW, { kind: 'progress', hintCode: 'userSign' }],
    [
      'unknown pending hint passes through',
      pending(),
      { status: 'pending', hintCode: 'userFace' },
      NOW,
      { kind: 'progress', hintCode: 'userFace' },
    ],
    ['complete', pending('userSign'), { status: 'complete', completion: identity }, NOW, { kind: 'complete', completion: identity }],
    [
      'complete even at expiry',
      pending('userSign'),
      { status: 'complete', completion: identity },
      LATER,
      { kind: 'complete', completion: identity },
    ],
    [
      'failed with the provider hint',
      pending(),
      { status: 'failed', hintCode: 'startFailed' },
      NOW,
      { kind: 'fail', hintCode: 'startFailed' },
    ],
    ['failed without a hint', pending(), { status: 'failed' }, NOW, { kind: 'fail', hintCode: 'unknown' }],
    [
      'pending past its lifetime',
      pending('userSign'),
      { status: 'pending', hintCode: 'userSign' },
      LATER,
      { kind: 'fail', hintCode: 'expiredTransaction' },
    ],
    ['provider unreachable, still in time', pending(), null, NOW, { kind: 'none' }],
    ['provider unreachable past its lifetime', pending(), null, LATER, { kind: 'fail', hintCode: 'expiredTransaction' }],
    [
      'complete is final',
      { status: 'complete', hintCode: null, expiresAt: LATER },
      { status: 'failed', hintCode: 'cancelled' },
      NOW,
      { kind: 'none' },
    ],
    [
      'failed is final',
      { status: 'failed', hintCode: 'userCancel', expiresAt: LATER },
      { status: 'complete', completion: identity },
      NOW,
      { kind: 'none' },
    ],
  ])('%s', (_name, session, collected, now, expected) => {
    expect(transitionAfterCollect(session, collected, now)).toEqual(expected);
  });
});
