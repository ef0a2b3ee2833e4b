import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A webhook target that must not be called: it is (or resolves to) an internal address. */
export class ForbiddenTargetError extends Error {
  override name = 'ForbiddenTargetError';
}

/**
 * True for addresses a webhook may reach: ordinary unicast on the public internet. ipaddr.js knows
 * the special-purpose registries (loopback, RFC 1918, link-local with the cloud metadata address
 * 169.254.169.254, CGNAT 100.64/10 with Alibaba's metadata, multicast, ULA fc00::/7 with AWS's
 * fd00:ec2::254, NAT64, 6to4, Teredo, documentation, benchmarking, reserved); the policy is only
 * "unicast or nothing". IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
 */
export function isPublicAddress(address: string): boolean {
  if (!isIP(address)) return false;
  const parsed = ipaddr.process(address);
  // ::a.b.c.d (IPv4-compatible, deprecated by RFC 4291) is "unicast" to ipaddr.js but can reach IPv4 hosts.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).match(ipaddr.parseCIDR('::/96'))) return false;
  return parsed.range() === 'unicast';
}

const describeRange = (address: string) => (isIP(address) ? ipaddr.process(address).range() : 'invalid');

/** The host of a URL as the resolver and the connection see it: IPv6 literals lose their brackets. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

export function assertPublicAddress(host: string, address: string): void {
  if (!isPublicAddress(address)) {
    const target = host === address ? address : `${host} (${address})`;
    throw new ForbiddenTargetError(`${target} is a ${describeRange(address)} address; webhooks go to public addresses only`);
  }
}

type Resolve = (hostname: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/** Resolves a URL's host and refuses it when any address is internal (endpoint creation and update). */
export async function assertPublicTarget(url: URL, resolve: Resolve = systemResolve): Promise<void> {
  const host = hostOf(url);
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  for (const { address } of addresses) assertPublicAddress(host, address);
}

/**
 * A `lookup` for the sockets of webhook sends. The check runs on the very answer the socket
 * connects to, so a name that resolved to a public address at creation and to 127.0.0.1 now (DNS
 * rebinding) is refused. IP literals never reach a lookup: the sender checks those itself.
 */
export function publicOnlyLookup(resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname)
      .then((addresses) => {
        for (const { address } of addresses) assertPublicAddress(hostname, address);
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = family ? addresses.filter((a) => a.family === family) : addresses;
        if (usable.length === 0) throw Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' });
        if (options.all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, '', 0));
  };
}
