import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedEnv } from '../app.env.js';

/**
 * Forward authentication (docs/forward-auth.md). Its own namespace, read by its module only: the route
 * policy of `FORWARD_AUTH_POLICY`, read and validated with the rest of the environment (a bad file
 * stops the start naming the variable and the entry). Unset: no route is listed, so every
 * forward-auth decision refuses. `FORWARD_AUTH_GATEWAY`: the gateway whose headers name the original request.
 */
export const forwardAuthConfig = registerAs('forwardAuth', () => ({
  routes: validatedEnv().FORWARD_AUTH_POLICY,
  gateway: validatedEnv().FORWARD_AUTH_GATEWAY,
}));
export type ForwardAuthConfig = ConfigType<typeof forwardAuthConfig>;
