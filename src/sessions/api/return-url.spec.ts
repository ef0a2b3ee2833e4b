import {
  newReturnNonce,
  RETURN_URL_MAX_INPUT_LENGTH,
  RETURN_URL_MAX_LENGTH,
  returnNonceHash,
  returnNonceMatches,
  returnUrlProblem,
  withReturnNonce,
} from './return-url.js';

describe(returnUrlProblem.name, () => {
  it.each([
    ['https://rp.example/return', true],
    ['https://rp.example/return?state=a%20b&x=1#top', true],
    ['http://localhost:8080/return', false],
    [`https://rp.example/${'a'.repeat(RETURN_URL_MAX_INPUT_LENGTH - 'https://rp.example/'.length)}`, true],
  ])('should accept %s (production: %s)', (url, production) => {
    expect(returnUrlProblem(url, production)).toBeUndefined();
  });

  it.each([
    ['http://rp.example/return', true, /https URL/],
    ['ftp://rp.example/return', false, /https/],
    ['javascript:alert(1)', false, /https/],
    ['/relative/path', false, /absolute/],
    ['https://user:pw@rp.example/', false, /user name or password/],
    ['https://rp.example/?eidgw_nonce=mine', false, /eidgw_nonce/],
    [`https://rp.example/${'a'.repeat(RETURN_URL_MAX_INPUT_LENGTH)}`, false, /at most 477 characters/],
  ])('should refuse %s (production: %s)', (url, production, detail) => {
    expect(returnUrlProblem(url, production)).toMatch(detail);
  });
});

describe(withReturnNonce.name, () => {
  it.each([
    ['https://rp.example/return', 'https://rp.example/return?eidgw_nonce=N'],
    ['https://rp.example/return?', 'https://rp.example/return?eidgw_nonce=N'],
    ['https://rp.example/r?state=a%20b+c', 'https://rp.example/r?state=a%20b+c&eidgw_nonce=N'],
    ['https://rp.example/r?x=1#step-2', 'https://rp.example/r?x=1&eidgw_nonce=N#step-2'],
    ['https://rp.example/r#a?b', 'https://rp.example/r?eidgw_nonce=N#a?b'],
  ])('should append the nonce to %s', (url, expected) => {
    expect(withReturnNonce(url, 'N')).toBe(expected);
  });

  it('should keep the longest accepted address within the app limit', () => {
    const longest = `https://rp.example/?${'a'.repeat(RETURN_URL_MAX_INPUT_LENGTH - 'https://rp.example/?'.length)}`;
    expect(withReturnNonce(longest, newReturnNonce())).toHaveLength(RETURN_URL_MAX_LENGTH);
  });
});

describe(newReturnNonce.name, () => {
  it('should give 128 random bits as base64url, different every time', () => {
    const nonces = new Set(Array.from({ length: 100 }, newReturnNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64url')).toHaveLength(16);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('should match only the same nonce', () => {
    const nonce = newReturnNonce();
    expect(returnNonceMatches(nonce, returnNonceHash(nonce))).toBe(true);
    expect(returnNonceMatches(`${nonce}x`, returnNonceHash(nonce))).toBe(false);
    expect(returnNonceMatches('', returnNonceHash(nonce))).toBe(false);
  });
});
