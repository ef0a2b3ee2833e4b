import { readFileSync } from 'node:fs';
import { registerAs, type ConfigType } from '@nestjs/config';
import { parseRoutePolicy, type PolicyRoute } from '../forward-auth/route-policy.js';
import { ConfigValidationError } from './env.validation.js';

/**
 * Forward authentication (docs/forward-auth.md). Its own namespace, read by its module only:
 * `FORWARD_AUTH_POLICY` is the path of the route policy, read and validated once at start; a bad
 * file stops the service with a message naming the variable and the entry. Unset: no route is
 * listed, so every forward-auth decision refuses.
 */
export const forwardAuthConfig = registerAs('forwardAuth', () => ({ routes: loadPolicy(process.env.FORWARD_AUTH_POLICY) }));
export type ForwardAuthConfig = ConfigType<typeof forwardAuthConfig>;

function loadPolicy(path: string | undefined): PolicyRoute[] {
  if (!path) return [];
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigValidationError([`FORWARD_AUTH_POLICY cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  const parsed = parseRoutePolicy(text);
  if ('problems' in parsed) throw new ConfigValidationError(parsed.problems.map((problem) => `FORWARD_AUTH_POLICY ${problem}`));
  return parsed.routes;
}
