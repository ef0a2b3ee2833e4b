import { loginHintPersonalNumber, mayCarryPersonalNumber } from './oidc-request-params.js';

describe(mayCarryPersonalNumber.name, () => {
  it.each([
    ['199001011239', true],
    ['sub:ssn:199001011239', true],
    ['sub:199001011239', true],
    ['19900101-1239', true],
    ['900101-1239', true],
    ['900101+1239', true],
    ['1990 0101 1239', true],
    ['anna1990010112', true],
    ['someone@example.com', false],
    ['user-123456789', false],
    ['12345-6789', false],
    [undefined, false],
  ])('should judge %p as %p', (hint, expected) => {
    expect(mayCarryPersonalNumber(hint)).toBe(expected);
  });

  // A plain scan (no regular expression), so its cost is linear by construction; no clock is asked here
  // (docs/performance.md: speed is the bench's), only that long hints are judged right.
  it('should judge long hints: digits split by separators count, nine-digit runs never do', () => {
    expect(mayCarryPersonalNumber('1-'.repeat(200_000))).toBe(true);
    expect(mayCarryPersonalNumber('123456789x'.repeat(100_000))).toBe(false);
  });
});

describe(loginHintPersonalNumber.name, () => {
  it.each([
    ['199001011239', { digits: '199001011239', valid: true }],
    ['sub:ssn:199001011239', { digits: '199001011239', valid: true }],
    ['19900101-1239', { digits: '199001011239', valid: true }],
    ['199001011238', { digits: '199001011238', valid: false }],
    ['900101-1239', undefined],
    ['sub:ssn:19900101123', undefined],
  ])('should read %p as %p', (hint, expected) => {
    expect(loginHintPersonalNumber(hint)).toEqual(expected);
  });
});
