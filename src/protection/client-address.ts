import ipaddr from 'ipaddr.js';

/**
 * The address that limits and blocks count a request under: the client IP (Fastify's `request.ip`,
 * which honours TRUST_PROXY), IPv4-mapped IPv6 unwrapped, and IPv6 grouped by its /64 network,
 * because one host or LAN gets a whole /64 and can rotate through it at will.
 */
export function clientAddressOf(ip: string): string {
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}
