import type { PolicyRoute } from './route-policy.js';

interface CompiledRoute {
  route: PolicyRoute;
  /** Literal segments as written; null where the template has a parameter. */
  segments: (string | null)[];
}

/**
 * Finds the policy route of an original request's method and raw path. Matching is exact and
 * segment by segment: a parameter takes one non-empty segment, a literal only itself (case matters,
 * no trailing slash, no `//`), so a path the upstream might read differently is refused, not guessed
 * (docs/forward-auth.md). Where a literal and a parameter both match, the literal wins.
 */
export class RouteMatcher {
  private readonly byShape = new Map<string, CompiledRoute[]>();

  constructor(routes: readonly PolicyRoute[]) {
    for (const route of routes) {
      const segments = route.template
        .slice(1)
        .split('/')
        .map((segment) => (segment.startsWith('{') ? null : segment));
      const key = `${route.method} ${segments.length}`;
      const list = this.byShape.get(key) ?? [];
      list.push({ route, segments });
      this.byShape.set(key, list);
    }
    // Most specific first: compared segment by segment, a literal before a parameter.
    for (const list of this.byShape.values()) list.sort((a, b) => specificity(a.segments, b.segments));
  }

  match(method: string, path: string): PolicyRoute | null {
    // HEAD reads what GET reads (RFC 9110 §9.3.2).
    const lookup = method === 'HEAD' ? 'GET' : method;
    const segments = path.slice(1).split('/');
    const candidates = path.startsWith('/') ? this.byShape.get(`${lookup} ${segments.length}`) : undefined;
    if (!candidates) return null;
    for (const candidate of candidates) {
      if (candidate.segments.every((literal, i) => (literal === null ? segments[i].length > 0 : literal === segments[i])))
        return candidate.route;
    }
    return null;
  }
}

function specificity(a: (string | null)[], b: (string | null)[]): number {
  for (let i = 0; i < a.length; i++) {
    if ((a[i] === null) !== (b[i] === null)) return a[i] === null ? 1 : -1;
  }
  return 0;
}
