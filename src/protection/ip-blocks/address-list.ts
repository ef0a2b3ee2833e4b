import ipaddr from 'ipaddr.js';

/** A list of addresses and CIDRs (IP_BLOCK_EXEMPT); IPv4-mapped IPv6 clients match their IPv4 entries. */
export class AddressList {
  private readonly ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][];

  constructor(entries: readonly string[]) {
    this.ranges = entries.map((entry) => {
      if (entry.includes('/')) return ipaddr.parseCIDR(entry);
      const address = ipaddr.process(entry);
      return [address, address.kind() === 'ipv4' ? 32 : 128];
    });
  }

  get empty(): boolean {
    return this.ranges.length === 0;
  }

  includes(ip: string): boolean {
    if (this.ranges.length === 0 || !ipaddr.isValid(ip)) return false;
    const address = ipaddr.process(ip);
    return this.ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
  }
}
