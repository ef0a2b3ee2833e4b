import { redirectUriProblem } from './oidc-client-rules.js';

describe(redirectUriProblem.name, () => {
  it.each([
    ['https://rp.example.com/cb', false, undefined],
    ['http://localhost:3000/cb', false, undefined],
    ['http://127.0.0.1:8080/cb', false, undefined],
    ['http://[::1]/cb', false, undefined],
  ])('should accept %s (production %s)', (uri, production, expected) => {
    expect(redirectUriProblem(uri, production)).toBe(expected);
  });

  it.each([
    ['http://rp.example.com/cb', false],
    ['http://localhost:3000/cb', true],
    ['https://rp.example.com/cb#x', false],
    ['https://user:pw@rp.example.com/cb', false],
    ['javascript:alert(1)', false],
    ['/relative', false],
  ])('should refuse %s (production %s)', (uri, production) => {
    expect(redirectUriProblem(uri, production)).toEqual(expect.any(String));
  });
});
