import { redactUrl } from './redact-url.js';

describe(redactUrl.name, () => {
  it.each([
    ['/api/v1/auth/x/poll?key=eidk_test_abc', '/api/v1/auth/x/poll?key=[redacted]'],
    ['/a?format=png&key=eidk_live_abc&x=1', '/a?format=png&key=[redacted]&x=1'],
    ['/a?KEY=abc', '/a?KEY=[redacted]'],
    ['/a?monkey=1', '/a?monkey=1'],
    ['/health/live', '/health/live'],
  ])('should turn %p into %p', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
