import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedEnv } from '../app.env.js';

/** The SAML front (docs/saml.md): off without a signing key. */
export const samlConfig = registerAs('saml', () => {
  const env = validatedEnv();
  return {
    signing:
      env.SAML_SIGNING_KEY && env.SAML_SIGNING_CERT ? { privateKey: env.SAML_SIGNING_KEY, certificate: env.SAML_SIGNING_CERT } : null,
  };
});
export type SamlConfig = ConfigType<typeof samlConfig>;
