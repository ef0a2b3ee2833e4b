import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedEnv } from '../../app.env.js';

/** The upstreams of SAML_UPSTREAMS, as the start's validation read them (upstream-saml.env.ts). */
export const upstreamSamlConfig = registerAs('upstreamSaml', () => ({ upstreams: validatedEnv().SAML_UPSTREAMS }));
export type UpstreamSamlModuleConfig = ConfigType<typeof upstreamSamlConfig>;
