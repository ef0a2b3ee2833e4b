import type { z } from 'zod';
import { issueOn, type EnvContext } from '../config/env-rules.js';
import { BANKID_ENV, checkBankIdEnv } from './bankid/bankid.env.js';
import { checkEudiEnv, EUDI_ENV } from './eudi/eudi.env.js';
import { checkFrejaEnv, FREJA_ENV } from './freja/freja.env.js';
import { SIMULATOR_ENV } from './simulator/simulator.env.js';
import { checkUpstreamOidcEnv, UPSTREAM_OIDC_ENV } from './upstream-oidc/upstream-oidc.env.js';
import { checkUpstreamSamlEnv, UPSTREAM_SAML_ENV } from './upstream-saml/upstream-saml.env.js';

/** Every provider's variables, each fragment from its folder; the application root (src/app.env.ts) adds them to the schema. */
export const PROVIDER_ENV = { ...BANKID_ENV, ...FREJA_ENV, ...SIMULATOR_ENV, ...UPSTREAM_OIDC_ENV, ...UPSTREAM_SAML_ENV, ...EUDI_ENV };

type ProviderEnv = z.infer<z.ZodObject<typeof PROVIDER_ENV>>;

/** Every provider's cross-checks, run at start with the rest: a bad value stops the start, naming the variable. */
export function checkProviderEnv(env: ProviderEnv, context: EnvContext, ctx: z.core.$RefinementCtx): void {
  const issue = issueOn(ctx);
  checkBankIdEnv(env, context, issue);
  checkFrejaEnv(env, context, issue);
  checkUpstreamOidcEnv(env, context, issue);
  checkUpstreamSamlEnv(env, context, issue);
  checkEudiEnv(env, context, issue);
}
