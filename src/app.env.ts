import { z } from 'zod';
import { issueOn } from './config/env-rules.js';
import { checkPlatformEnv, oncePerEnvironment, parseEnv, PLATFORM_ENV } from './config/env.validation.js';
import { checkProviderEnv, PROVIDER_ENV } from './eid-providers/provider-env.js';
import { FORWARD_AUTH_GATEWAYS } from './forward-auth/original-request.js';
import { routePolicyFile } from './forward-auth/route-policy.js';
import { checkSamlEnv, SAML_ENV } from './saml/saml.env.js';

/** The whole environment (docs/operations.md): the platform's variables and each feature's fragment. */
export const envSchema = z
  .object({
    ...PLATFORM_ENV,
    // Each provider's variables come from its folder (docs/providers.md).
    ...PROVIDER_ENV,
    ...SAML_ENV,
    /** Forward authentication's route policy file (docs/forward-auth.md), parsed into its routes. */
    FORWARD_AUTH_POLICY: routePolicyFile,
    // The gateway in front, whose one family of headers names the original request (docs/forward-auth.md).
    FORWARD_AUTH_GATEWAY: z.enum(FORWARD_AUTH_GATEWAYS, { message: `must be one of ${FORWARD_AUTH_GATEWAYS.join(', ')}` }).default('auto'),
  })
  .superRefine((env, ctx) => {
    checkPlatformEnv(env, ctx);
    checkProviderEnv(env, { production: env.NODE_ENV === 'production', providers: env.PROVIDERS }, ctx);
    checkSamlEnv(env, issueOn(ctx));
  });

export type Env = z.infer<typeof envSchema>;

/** Validates the whole environment; the message names every bad variable and its rule, never its value. */
export function validateEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // Defaults hide whether a variable was set, so this production rule reads the environment itself.
  return parseEnv(envSchema, source, (present) =>
    present.NODE_ENV === 'production' && !present.PROVIDERS ? ['PROVIDERS must be set explicitly when NODE_ENV=production'] : [],
  );
}

/** The whole environment, validated once per environment for the entry points and the features' namespaces. */
export const validatedEnv = oncePerEnvironment(validateEnv);
