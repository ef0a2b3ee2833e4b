import type { FastifyRequest } from 'fastify';
import { AddressList } from '../protection/ip-blocks/address-list.js';
import { clientIpOf, FORWARD_AUTH_GATEWAYS, queryKeyOf, readOriginalRequest } from './original-request.js';

const requestOf = (parts: { url?: string; method?: string; headers?: Record<string, string>; ip?: string; peer?: string }) =>
  ({
    url: parts.url ?? '/forward-auth',
    method: parts.method ?? 'GET',
    headers: parts.headers ?? {},
    ip: parts.ip ?? parts.peer ?? '192.0.2.1',
    socket: { remoteAddress: parts.peer ?? '192.0.2.1' },
  }) as unknown as FastifyRequest;

describe('The original request of a forward-auth decision (docs/forward-auth.md)', () => {
  it("should read nginx's, Caddy's and Traefik's headers, and Envoy's path", () => {
    expect(readOriginalRequest(requestOf({ headers: { 'x-original-method': 'post', 'x-original-uri': '/orders?x=1' } }), 'auto')).toEqual({
      method: 'POST',
      uri: '/orders?x=1',
      path: '/orders',
      query: 'x=1',
      host: undefined,
      nginx: true,
    });
    expect(
      readOriginalRequest(
        requestOf({ headers: { 'x-forwarded-method': 'GET', 'x-forwarded-uri': '/companies/1', 'x-forwarded-host': 'lens.example.com' } }),
        'auto',
      ),
    ).toMatchObject({ method: 'GET', path: '/companies/1', host: 'lens.example.com', nginx: false });
    expect(
      readOriginalRequest(requestOf({ url: '/forward-auth/companies/1?key=k', method: 'DELETE', headers: { host: 'api' } }), 'auto'),
    ).toMatchObject({
      method: 'DELETE',
      path: '/companies/1',
      query: 'key=k',
      host: 'api',
    });
  });

  it('should refuse a request that names no original request, or a malformed one', () => {
    expect(() => readOriginalRequest(requestOf({}), 'auto')).toThrow(/X-Original-URI/);
    expect(() => readOriginalRequest(requestOf({ headers: { 'x-original-uri': 'http://evil/x' } }), 'auto')).toThrow(/starting with \//);
    expect(() => readOriginalRequest(requestOf({ headers: { 'x-original-uri': '/x', 'x-original-method': 'GET /y' } }), 'auto')).toThrow(
      /HTTP method/,
    );
    expect(() => readOriginalRequest(requestOf({ headers: { 'x-original-method': 'GET' } }), 'nginx')).toThrow(/starting with \//);
  });

  // docs/security.md, round 4: Caddy copies the client's headers into its subrequest, so a client's
  // X-Original-URI used to decide a request Caddy described with X-Forwarded-Uri.
  it("should refuse a request that names its original request in two families: one is a client's", () => {
    const spoofed = {
      'x-forwarded-method': 'POST',
      'x-forwarded-uri': '/team/exports',
      'x-original-uri': '/companies/1',
    };
    for (const gateway of FORWARD_AUTH_GATEWAYS)
      expect(() => readOriginalRequest(requestOf({ headers: spoofed }), gateway)).toThrow(/names its original request twice/);
    expect(() => readOriginalRequest(requestOf({ headers: { 'x-forwarded-uri': '/a', 'x-original-method': 'GET' } }), 'auto')).toThrow(
      /twice/,
    );
    expect(() =>
      readOriginalRequest(requestOf({ url: '/forward-auth/team/exports', headers: { 'x-forwarded-uri': '/a' } }), 'auto'),
    ).toThrow(/twice/);
  });

  it('should read only the family of the configured gateway', () => {
    const nginxHeaders = { headers: { 'x-original-method': 'GET', 'x-original-uri': '/companies/1' } };
    const caddyHeaders = { headers: { 'x-forwarded-method': 'GET', 'x-forwarded-uri': '/companies/1' } };
    expect(readOriginalRequest(requestOf(nginxHeaders), 'nginx').path).toBe('/companies/1');
    expect(readOriginalRequest(requestOf(caddyHeaders), 'caddy').path).toBe('/companies/1');
    expect(readOriginalRequest(requestOf(caddyHeaders), 'traefik').path).toBe('/companies/1');
    expect(readOriginalRequest(requestOf({ url: '/forward-auth/companies/1' }), 'envoy').path).toBe('/companies/1');
    expect(() => readOriginalRequest(requestOf(nginxHeaders), 'caddy')).toThrow(
      /FORWARD_AUTH_GATEWAY is caddy, which sends X-Forwarded-Method/,
    );
    expect(() => readOriginalRequest(requestOf(caddyHeaders), 'nginx')).toThrow(/FORWARD_AUTH_GATEWAY is nginx/);
    expect(() => readOriginalRequest(requestOf(caddyHeaders), 'envoy')).toThrow(/FORWARD_AUTH_GATEWAY is envoy/);
  });

  it('should read ?key= as a query parser does, and only that parameter', () => {
    expect(queryKeyOf('q=a&key=eidk_test_abc&page=1')).toBe('eidk_test_abc');
    expect(queryKeyOf('%6Bey=eidk_test_abc')).toBe('eidk_test_abc');
    expect(queryKeyOf('monkey=1&keys=2')).toBeUndefined();
    expect(queryKeyOf('')).toBeUndefined();
  });

  it('should believe X-Real-IP only from a trusted proxy that sent no X-Forwarded-For', () => {
    const trusted = new AddressList(['10.0.0.5']);
    expect(clientIpOf(requestOf({ peer: '10.0.0.5', headers: { 'x-real-ip': '198.51.100.7' } }), trusted)).toBe('198.51.100.7');
    expect(clientIpOf(requestOf({ peer: '203.0.113.9', headers: { 'x-real-ip': '198.51.100.7' } }), trusted)).toBe('203.0.113.9');
    expect(clientIpOf(requestOf({ peer: '10.0.0.5', headers: { 'x-real-ip': 'not-an-ip' } }), trusted)).toBe('10.0.0.5');
    // With X-Forwarded-For, Fastify's request.ip (which applies TRUST_PROXY) decides.
    expect(
      clientIpOf(
        requestOf({ peer: '10.0.0.5', ip: '198.51.100.8', headers: { 'x-forwarded-for': '198.51.100.8', 'x-real-ip': '1.2.3.4' } }),
        trusted,
      ),
    ).toBe('198.51.100.8');
  });
});
