import { z } from 'zod';
import { API_KEY_SCOPES } from '../api-keys/api-key.entity.js';
import type { EndpointAccess } from '../auth/access-checks.js';
import { fileVariable } from '../config/env-rules.js';

// The route policy of forward authentication (docs/forward-auth.md, "The route policy"): which of a
// gateway's routes exist, and who may call them. What it does not list is refused.

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
// A template segment is a literal (RFC 3986 path characters, no percent-encoding, no `;` parameter, no
// trailing dot: the matcher refuses those in a request) or one `{name}` parameter.
const LITERAL = /^[A-Za-z0-9._~!$&'()*+,=:@-]*[A-Za-z0-9_~!$&'()*+,=:@-]$/;
const PARAMETER = /^\{[A-Za-z_][A-Za-z0-9_]*\}$/;

const entrySchema = z
  .object({
    method: z.enum(METHODS, { message: `must be one of ${METHODS.join(', ')}` }),
    path: z
      .string()
      .max(512)
      .refine(
        (path) =>
          path.startsWith('/') &&
          path
            .slice(1)
            .split('/')
            .every((s) => LITERAL.test(s) || PARAMETER.test(s)),
        {
          message: 'must be a path template such as /companies/{id}: segments of literal characters or one {parameter} each',
        },
      ),
    apiKey: z.boolean({ message: 'must be true (open to API keys) or false (team members only)' }),
    features: z.array(z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be plan feature names')).default([]),
    scopes: z.array(z.enum(API_KEY_SCOPES, { message: `must be API key scopes (${API_KEY_SCOPES.join(', ')})` })).default([]),
    description: z.string().optional(),
  })
  .strict();

// A bare list is read as the routes: "a list of routes" is how people write it first.
const policySchema = z.union([
  z.object({ $comment: z.string().optional(), routes: z.array(z.unknown()) }).strict(),
  z.array(z.unknown()).transform((routes) => ({ routes })),
]);
const POLICY_SHAPE =
  'must be a JSON list of routes [{"method", "path", "apiKey", "features"?, "scopes"?}, ...], or an object {"routes": [...]}';

export interface PolicyRoute {
  method: (typeof METHODS)[number];
  /** The template as written (`/companies/{id}`): the metrics label, never a client's path. */
  template: string;
  access: EndpointAccess;
}

/** A parsed policy, or the problems that make it unusable, each naming the entry. */
export function parseRoutePolicy(json: string): { routes: PolicyRoute[] } | { problems: string[] } {
  let document: unknown;
  try {
    document = JSON.parse(json);
  } catch (error) {
    return { problems: [`is not JSON: ${(error as Error).message}`] };
  }
  const top = policySchema.safeParse(document);
  if (!top.success) return { problems: [POLICY_SHAPE] };
  const problems: string[] = [];
  const routes: PolicyRoute[] = [];
  const shapes = new Map<string, string>();
  top.data.routes.forEach((raw, index) => {
    const parsed = entrySchema.safeParse(raw);
    const label = `routes[${index}]${describe(raw)}`;
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(`${label}: ${issue.path.join('.') || 'entry'} ${issue.message}`);
      return;
    }
    const { method, path, apiKey, features, scopes } = parsed.data;
    const shape = `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`;
    const earlier = shapes.get(shape);
    if (earlier) problems.push(`${label}: the same route as ${earlier}`);
    shapes.set(shape, label);
    routes.push({ method, template: path, access: { apiKey, members: true, scopes: scopes, features } });
  });
  return problems.length > 0 ? { problems } : { routes };
}

function describe(raw: unknown): string {
  if (typeof raw !== 'object' || raw === null) return '';
  const { method, path } = raw as Record<string, unknown>;
  return typeof method === 'string' && typeof path === 'string' ? ` (${method} ${path.slice(0, 100)})` : '';
}

/**
 * `FORWARD_AUTH_POLICY` as an environment variable: the path of the policy file, read and validated with
 * the rest of the environment, so a bad file stops the start before anything connects. Unset: no route.
 */
export const routePolicyFile = fileVariable<PolicyRoute[]>([], (text) => {
  const parsed = parseRoutePolicy(text);
  return 'routes' in parsed ? { value: parsed.routes } : parsed;
});
