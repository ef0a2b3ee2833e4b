import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedEnv } from '../../app.env.js';

/** The upstreams of OIDC_UPSTREAMS, as the start's validation read them (upstream-oidc.env.ts). */
export const upstreamOidcConfig = registerAs('upstreamOidc', () => ({
  upstreams: validatedEnv().OIDC_UPSTREAMS,
  /** Each call to an upstream (discovery, PAR, token); the person waits on it. */
  timeoutSeconds: 10,
}));
export type UpstreamOidcConfig = ConfigType<typeof upstreamOidcConfig>;
