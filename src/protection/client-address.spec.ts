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
