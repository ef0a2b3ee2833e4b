import { clientAddressOf } from './client-address.js';

describe(clientAddressOf.name, () => {
  it.each([
    ['192.0.2.10', '192.0.2.10'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['::1', '::/64'],
  ])('should count %p as %p', (ip, expected) => {
    expect(clientAddressOf(ip)).toBe(expected);
  });

  it('should put two addresses of one /64 under one key and of two /64s under two', () => {
    expect(clientAddressOf('2001:db8:0:1::a')).toBe(clientAddressOf('2001:db8:0:1:ffff::b'));
    expect(clientAddressOf('2001:db8:0:1::a')).not.toBe(clientAddressOf('2001:db8:0:2::a'));
  });
});

describe(`${clientAddressOf.name}, asked again`, () => {
  it('should answer as the first time, and refuse a malformed address each time', () => {
    for (let round = 0; round < 2; round++) {
      expect(clientAddressOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
      expect(() => clientAddressOf('not an address')).toThrow();
    }
  });

  it('should stay right past its bound', () => {
    for (let i = 0; i < 5000; i++) clientAddressOf(`10.0.${i >> 8}.${i & 255}`);
    expect(clientAddressOf('10.0.0.1')).toBe('10.0.0.1');
    expect(clientAddressOf('::ffff:10.0.19.135')).toBe('10.0.19.135');
  });
});
