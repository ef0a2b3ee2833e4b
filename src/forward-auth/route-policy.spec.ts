import { readFileSync } from 'node:fs';
import { RouteMatcher } from './route-matcher.js';
import { parseRoutePolicy, type PolicyRoute } from './route-policy.js';

const routesOf = (routes: unknown[]): PolicyRoute[] => {
  const parsed = parseRoutePolicy(JSON.stringify({ routes }));
  if ('problems' in parsed) throw new Error(parsed.problems.join('\n'));
  return parsed.routes;
};
const problemsOf = (json: string): string[] => {
  const parsed = parseRoutePolicy(json);
  return 'problems' in parsed ? parsed.problems : [];
};

describe('The forward-auth route policy (docs/forward-auth.md)', () => {
  it('should read entries with their access: keys or members only, features, scopes', () => {
    expect(
      routesOf([{ method: 'POST', path: '/watchlists/{id}/events', apiKey: true, features: ['pro'], scopes: ['sessions:read'] }]),
    ).toEqual([
      {
        method: 'POST',
        template: '/watchlists/{id}/events',
        access: { apiKey: true, members: true, features: ['pro'], scopes: ['sessions:read'] },
      },
    ]);
  });

  it('should name the bad entry and what is wrong with it', () => {
    const problems = problemsOf(
      JSON.stringify({
        routes: [
          { method: 'GET', path: '/companies/{id}', apiKey: true },
          { method: 'get', path: '/x', apiKey: true },
          { method: 'GET', path: 'companies', apiKey: true },
          { method: 'GET', path: '/a/{id}', apiKey: 'yes' },
          { method: 'GET', path: '/b', apiKey: true, feature: ['pro'] },
          { method: 'GET', path: '/c', apiKey: true, scopes: ['admin'] },
          { method: 'GET', path: '/companies/{other}', apiKey: false },
          { method: 'GET', path: '/d/{id}x', apiKey: true },
        ],
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^routes\[1\] \(get \/x\): method must be one of GET/),
      expect.stringMatching(/^routes\[2\] \(GET companies\): path must be a path template/),
      expect.stringMatching(/^routes\[3\] \(GET \/a\/\{id\}\): apiKey must be true/),
      expect.stringMatching(/^routes\[4\] \(GET \/b\): .*feature/),
      expect.stringMatching(/^routes\[5\] \(GET \/c\): scopes\.0 must be API key scopes/),
      'routes[6] (GET /companies/{other}): the same route as routes[0] (GET /companies/{id})',
      expect.stringMatching(/^routes\[7\] \(GET \/d\/\{id\}x\): path must be a path template/),
    ]);
    expect(problemsOf('{"routes": [')).toEqual([expect.stringMatching(/^is not JSON/)]);
    expect(problemsOf('{"rules": []}')).toEqual([expect.stringMatching(/^must be a JSON list of routes .*, or an object \{"routes"/)]);
    expect(problemsOf('"GET /x"')).toEqual([expect.stringMatching(/^must be a JSON list of routes/)]);
  });

  it('should read a bare list of routes as the object with those routes', () => {
    const routes = [
      { method: 'GET', path: '/companies/{id}', apiKey: true },
      { method: 'DELETE', path: '/team/orders/{id}', apiKey: false, features: ['pro'] },
    ];
    expect(parseRoutePolicy(JSON.stringify(routes))).toEqual({ routes: routesOf(routes) });
    expect(parseRoutePolicy('[]')).toEqual({ routes: [] });
    expect(problemsOf(JSON.stringify([{ method: 'GET', path: '/x', apiKey: 'yes' }]))).toEqual([
      expect.stringMatching(/^routes\[0\] \(GET \/x\): apiKey must be true/),
    ]);
  });

  it('should ship an example that lists the seed v1 and v2 routes, the sixteen tabular POST routes among them', () => {
    const parsed = parseRoutePolicy(readFileSync('deploy/forward-auth-policy.example.json', 'utf8'));
    if ('problems' in parsed) throw new Error(parsed.problems.join('\n'));
    const posts = parsed.routes.filter((route) => route.method === 'POST');
    expect(posts).toHaveLength(16);
    expect(parsed.routes.map((route) => `${route.method} ${route.template}`)).toEqual(
      expect.arrayContaining([
        'GET /datasets/vehicles/se/{vehicleId}/events',
        'GET /datasets/companies/{id}',
        'GET /search/companies',
        'GET /companies/{id}',
        'GET /search-public/companies',
        'POST /orders',
        'POST /team/orders',
        'POST /team/exports',
      ]),
    );
  });
});

describe('Route matching', () => {
  const matcher = new RouteMatcher(
    routesOf([
      { method: 'GET', path: '/companies/{id}', apiKey: true },
      { method: 'GET', path: '/companies/search', apiKey: false },
      { method: 'POST', path: '/watchlists/{id}/events', apiKey: true },
    ]),
  );
  const templateOf = (method: string, path: string) => matcher.match(method, path)?.template ?? null;

  it('should match segment by segment, a literal before a parameter, HEAD as GET', () => {
    expect(templateOf('GET', '/companies/5560001234')).toBe('/companies/{id}');
    expect(templateOf('HEAD', '/companies/1')).toBe('/companies/{id}');
    expect(templateOf('GET', '/companies/search')).toBe('/companies/search');
    expect(templateOf('POST', '/watchlists/7/events')).toBe('/watchlists/{id}/events');
  });

  it('should refuse what the upstream might read differently rather than guess', () => {
    for (const [method, path] of [
      ['GET', '/companies/1/'],
      ['GET', '//companies/1'],
      ['GET', '/Companies/1'],
      ['GET', '/companies/'],
      ['GET', '/companies'],
      ['POST', '/companies/1'],
      ['GET', 'companies/1'],
      ['POST', '/watchlists//events'],
    ]) {
      expect(templateOf(method, path)).toBeNull();
    }
  });

  // docs/security.md, round 4: each of these reached /companies/{id} (open to keys), while an upstream
  // that decodes, ignores case or drops `;` parameters serves /companies/search (members only).
  it("should refuse another spelling of a literal sibling, escapes of unreserved characters, ';' parameters and trailing dots", () => {
    for (const path of [
      '/companies/%73earch',
      '/companies/SEARCH',
      '/companies/Search',
      '/companies/search;x',
      '/companies/search.',
      '/companies/1;jsessionid=x',
      '/companies/%41BC',
      '/companies/.',
      '/companies/..',
      '/watchlists/7/%65vents',
    ]) {
      expect({ path, template: templateOf(path.startsWith('/watchlists') ? 'POST' : 'GET', path) }).toEqual({ path, template: null });
    }
    // Escapes of reserved characters are data, not another spelling.
    expect(templateOf('GET', '/companies/a%2Fb')).toBe('/companies/{id}');
    expect(templateOf('GET', '/companies/%2573earch')).toBe('/companies/{id}');
    expect(templateOf('GET', '/companies/1.5')).toBe('/companies/{id}');
  });

  it('should refuse policy literals a request could not match: a `;` or a trailing dot', () => {
    expect(problemsOf(JSON.stringify({ routes: [{ method: 'GET', path: '/a;b', apiKey: true }] }))).toEqual([
      expect.stringMatching(/path must be a path template/),
    ]);
    expect(problemsOf(JSON.stringify({ routes: [{ method: 'GET', path: '/a./b', apiKey: true }] }))).toEqual([
      expect.stringMatching(/path must be a path template/),
    ]);
    expect(routesOf([{ method: 'GET', path: '/v1.2/x', apiKey: true }])).toHaveLength(1);
  });
});
