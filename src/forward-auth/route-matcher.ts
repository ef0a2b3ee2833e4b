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
 * (docs/forward-auth.md). Where a literal and a parameter both match, the literal wins; a parameter
 * never takes another spelling of its literal sibling.
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
    if (!candidates || !segments.every(isPlainSegment)) return null;
    const matched = candidates.find((candidate) =>
      candidate.segments.every((literal, i) => (literal === null ? segments[i].length > 0 : literal === segments[i])),
    );
    if (!matched) return null;
    // A parameter that takes a spelling of a literal sibling (`SEARCH`, `%53earch` for `search`) is a
    // path an upstream that decodes or ignores case reads as that sibling, whose rule may be stricter.
    const folded = segments.map(foldedSegment);
    const sibling = candidates.find(
      (candidate) =>
        candidate !== matched &&
        candidate.segments.some((literal, i) => literal !== null && matched.segments[i] === null) &&
        candidate.segments.every((literal, i) => literal === null || foldedSegment(literal) === folded[i]),
    );
    return sibling ? null : matched.route;
  }
}

/**
 * Segments that upstreams read differently are refused rather than guessed: an escape of an unreserved
 * character (`%73earch` is `search` to most servers, RFC 3986 §2.3), a `;` parameter (`search;x` is
 * `search` to some), a trailing dot (`search.`, and the dot segments `.` and `..`).
 */
function isPlainSegment(segment: string): boolean {
  if (segment.includes(';') || segment.endsWith('.')) return false;
  for (const escape of segment.matchAll(/%([0-9A-Fa-f]{2})/g)) {
    if (UNRESERVED.test(String.fromCharCode(parseInt(escape[1], 16)))) return false;
  }
  return true;
}

const UNRESERVED = /^[A-Za-z0-9._~-]$/;

/** A segment as an upstream that decodes and ignores case reads it. */
function foldedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

function specificity(a: (string | null)[], b: (string | null)[]): number {
  for (let i = 0; i < a.length; i++) {
    if ((a[i] === null) !== (b[i] === null)) return a[i] === null ? 1 : -1;
  }
  return 0;
}
