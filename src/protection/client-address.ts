import ipaddr from 'ipaddr.js';

// Every request asks, often for the same few addresses (a relying party's backend); parsing one costs
// more than the rest of the IP-block check. Bounded: a client rotating addresses empties it, no more.
const REMEMBERED = 4096;
const remembered = new Map<string, string>();

/**
 * The address that limits and blocks count a request under: the client IP (Fastify's `request.ip`,
 * which honours TRUST_PROXY), IPv4-mapped IPv6 unwrapped, and IPv6 grouped by its /64 network,
 * because one host or LAN gets a whole /64 and can rotate through it at will.
 */
export function clientAddressOf(ip: string): string {
  let address = remembered.get(ip);
  if (address === undefined) {
    address = parse(ip);
    if (remembered.size >= REMEMBERED) remembered.clear();
    remembered.set(ip, address);
  }
  return address;
}

function parse(ip: string): string {
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}
