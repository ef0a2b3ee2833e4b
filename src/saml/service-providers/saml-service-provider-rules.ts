import { X509Certificate } from 'node:crypto';
import { redirectUriProblem, type FieldProblem } from '../../oidc/clients/oidc-client-rules.js';
import type { SamlServiceProvider } from './saml-service-provider.js';

const certificateProblem = (pem: string): string | undefined => {
  try {
    new X509Certificate(pem);
    return undefined;
  } catch {
    return 'must be an X.509 certificate in PEM';
  }
};

/** The rules across fields of a registration (after a change is applied); the ACS URLs follow the OIDC redirect URI rule. */
export function serviceProviderProblems(sp: SamlServiceProvider, offered: ReadonlySet<string>, production: boolean): FieldProblem[] {
  const problems: FieldProblem[] = [];
  sp.acsUrls.forEach((url, i) => {
    const problem = redirectUriProblem(url, production);
    if (problem) problems.push({ pointer: `/acsUrls/${i}`, detail: problem });
  });
  const logout = sp.singleLogoutUrl === null ? undefined : redirectUriProblem(sp.singleLogoutUrl, production);
  if (logout) problems.push({ pointer: '/singleLogoutUrl', detail: logout });
  const signing = certificateProblem(sp.signingCertificate);
  if (signing) problems.push({ pointer: '/signingCertificate', detail: signing });
  const encryption = sp.encryptionCertificate === null ? undefined : certificateProblem(sp.encryptionCertificate);
  if (encryption) problems.push({ pointer: '/encryptionCertificate', detail: encryption });
  (sp.providers ?? []).forEach((name, i) => {
    if (!offered.has(name)) problems.push({ pointer: `/providers/${i}`, detail: 'is not an e-ID provider of the SAML front' });
  });
  return problems;
}
