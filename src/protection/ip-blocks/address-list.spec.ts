import { AddressList } from './address-list.js';

describe(AddressList.name, () => {
  const list = new AddressList(['203.0.113.7', '198.51.100.0/24', '2001:db8:1::/48']);

  it.each([
    ['203.0.113.7', true],
    ['203.0.113.8', false],
    ['198.51.100.200', true],
    ['198.51.101.1', false],
    ['::ffff:198.51.100.9', true],
    ['2001:db8:1:ffff::1', true],
    ['2001:db8:2::1', false],
    ['not an address', false],
  ])('should say whether %s is listed (%s)', (ip, listed) => {
    expect(list.includes(ip)).toBe(listed);
  });

  it('should list nothing when empty', () => {
    expect(new AddressList([]).includes('203.0.113.7')).toBe(false);
  });
});
