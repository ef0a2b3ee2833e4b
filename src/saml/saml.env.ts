import { createPrivateKey, X509Certificate } from 'node:crypto';
import { fileVariable, type EnvIssue } from '../config/env-rules.js';
import { signingKeyProblem } from './saml-signer.js';

/** A PEM file read at start; the problem names the variable's kind of content, never the content. */
const pemFile = (kind: 'private key' | 'certificate', check: (pem: string) => unknown) =>
  fileVariable<string | undefined>(undefined, (text) => {
    try {
      check(text);
      return { value: text };
    } catch {
      return { problems: [`must be a PEM ${kind}`] };
    }
  });

/**
 * The SAML front's signing key (RSA or EC P-256) and certificate (docs/saml.md): files, both or
 * neither. Without them the front is off and /saml answers 404.
 */
export const SAML_ENV = {
  SAML_SIGNING_KEY: pemFile('private key', (pem) => createPrivateKey(pem)),
  SAML_SIGNING_CERT: pemFile('certificate', (pem) => new X509Certificate(pem)),
};

export function checkSamlEnv(env: { SAML_SIGNING_KEY?: string; SAML_SIGNING_CERT?: string }, issue: EnvIssue): void {
  const { SAML_SIGNING_KEY: key, SAML_SIGNING_CERT: cert } = env;
  if (Boolean(key) !== Boolean(cert)) {
    issue(key ? 'SAML_SIGNING_CERT' : 'SAML_SIGNING_KEY', 'is required with the other SAML signing variable');
    return;
  }
  if (!key || !cert) return;
  const keyProblem = signingKeyProblem(key);
  if (keyProblem) issue('SAML_SIGNING_KEY', keyProblem);
  else if (!new X509Certificate(cert).checkPrivateKey(createPrivateKey(key))) issue('SAML_SIGNING_CERT', 'does not match SAML_SIGNING_KEY');
}
