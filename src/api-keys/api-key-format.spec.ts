import { generateApiKey, hashApiKey, parseApiKey } from './api-key-format.js';

describe('API key format', () => {
  it.each(['test', 'live'] as const)('should generate a %s key that parses back to its environment', (env) => {
    const generated = generateApiKey(env);
    expect(generated.key).toMatch(new RegExp(`^eidk_${env}_[0-9A-Za-z]{38}$`));
    expect(parseApiKey(generated.key)).toBe(env);
    expect(generated.hash.equals(hashApiKey(generated.key))).toBe(true);
    expect(generated.displayPrefix).toBe(generated.key.slice(0, 14));
    expect(generated.lastFour).toBe(generated.key.slice(-4));
  });

  it('should give a new key every time', () => {
    const keys = new Set(Array.from({ length: 100 }, () => generateApiKey('test').key));
    expect(keys.size).toBe(100);
  });

  it('should refuse a key with one character changed (checksum)', () => {
    const { key } = generateApiKey('live');
    const i = 20;
    const altered = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
    expect(parseApiKey(altered)).toBeNull();
  });

  it.each(['', 'eidk_test_', 'eidk_prod_' + 'a'.repeat(38), 'sk_live_abc', 'eidk_test_' + 'a'.repeat(37) + '!'])(
    'should refuse malformed %p',
    (candidate) => {
      expect(parseApiKey(candidate)).toBeNull();
    },
  );
});
