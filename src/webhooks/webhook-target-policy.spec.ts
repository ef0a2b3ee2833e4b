import type { LookupAddress } from 'node:dns';
import { assertPublicTarget, ForbiddenTargetError, isPublicAddress, publicOnlyLookup } from './webhook-target-policy.js';

describe(isPublicAddress.name, () => {
  it.each([
    // IPv4
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', '"this network"'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'cloud metadata (AWS, GCP, Azure)'],
    ['100.64.0.1', 'CGNAT'],
    ['100.100.100.200', 'Alibaba Cloud metadata (CGNAT)'],
    ['192.0.0.192', 'Oracle Cloud metadata (IETF protocol assignments)'],
    ['192.0.2.10', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    // IPv6
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique local'],
    ['fd00:ec2::254', 'AWS metadata (unique local)'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'site-local (deprecated)'],
    ['2001:db8::1', 'documentation'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
    ['2001::1', 'Teredo'],
    ['::7f00:1', 'IPv4-compatible 127.0.0.1'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['not-an-ip', 'not an address'],
  ])('should refuse %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['93.184.215.14'],
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['172.32.0.1'],
    ['100.128.0.1'],
    ['2606:4700:4700::1111'],
    ['2a00:1450:4001:80b::200e'],
    ['::ffff:8.8.8.8'],
  ])('should allow the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

const resolverOf =
  (table: Record<string, LookupAddress[]>) =>
  async (hostname: string): Promise<LookupAddress[]> => {
    const answer = table[hostname];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answer;
  };

const resolve = resolverOf({
  'hooks.example.com': [
    { address: '93.184.215.14', family: 4 },
    { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
  ],
  'internal.example.com': [{ address: '10.1.2.3', family: 4 }],
  'mixed.example.com': [
    { address: '93.184.215.14', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
  localhost: [
    { address: '::1', family: 6 },
    { address: '127.0.0.1', family: 4 },
  ],
});

describe(assertPublicTarget.name, () => {
  it('should accept a name whose every address is public', async () => {
    await expect(assertPublicTarget(new URL('https://hooks.example.com/eid'), resolve)).resolves.toBeUndefined();
  });

  it.each([
    ['http://localhost:3000/hook', /localhost \(::1\) is a loopback address/],
    ['https://internal.example.com/', /internal\.example\.com \(10\.1\.2\.3\) is a private address/],
    ['https://mixed.example.com/', /127\.0\.0\.1\) is a loopback address/],
    ['http://[::ffff:127.0.0.1]/', /::ffff:7f00:1 is a loopback address/],
    ['http://169.254.169.254/latest/meta-data', /169\.254\.169\.254 is a linkLocal address/],
  ])('should refuse %s', async (url, message) => {
    await expect(assertPublicTarget(new URL(url), resolve)).rejects.toThrow(message);
  });

  it('should pass a resolver failure on', async () => {
    await expect(assertPublicTarget(new URL('https://nowhere.example.com/'), resolve)).rejects.toThrow(/ENOTFOUND/);
  });
});

describe(publicOnlyLookup.name, () => {
  const lookup = (hostname: string, options: { all?: boolean; family?: number }) =>
    new Promise<{ error: Error | null; address: unknown; family?: number }>((done) =>
      publicOnlyLookup(resolve)(hostname, options, (error, address, family) => done({ error, address, family })),
    );

  it('should answer like dns.lookup for public names, with and without all', async () => {
    expect(await lookup('hooks.example.com', { all: true })).toMatchObject({
      error: null,
      address: [{ address: '93.184.215.14', family: 4 }, { family: 6 }],
    });
    expect(await lookup('hooks.example.com', {})).toMatchObject({ error: null, address: '93.184.215.14', family: 4 });
    expect(await lookup('hooks.example.com', { family: 6 })).toMatchObject({ error: null, family: 6 });
  });

  it('should refuse a name that resolves to an internal address at connect time (DNS rebinding)', async () => {
    const { error } = await lookup('internal.example.com', { all: true });
    expect(error).toBeInstanceOf(ForbiddenTargetError);
    expect((await lookup('mixed.example.com', {})).error).toBeInstanceOf(ForbiddenTargetError);
  });
});
