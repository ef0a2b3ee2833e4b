import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { fileVariable, type EnvContext, type EnvIssue } from '../../config/env-rules.js';
import { assertSafeXml } from '../../saml/saml-xml.js';
import { samlify } from '../../saml/samlify.js';
import type { UpstreamConfig } from '../upstream-oidc/upstream-oidc.env.js';

// Names the service's own providers and the family already use (docs/saml.md, "Upstream SAML e-IDs").
const RESERVED_NAMES = ['simulator', 'bankid', 'freja', 'oidc', 'saml', 'eudi', 'openid4vp'];

const attributeName = z.string().min(1).max(200);
const spaceless = z.string().regex(/^[\x21-\x7e]{1,200}$/, 'must be values without spaces');
const distinctList = z
  .array(spaceless)
  .min(1)
  .max(20)
  .refine((values) => new Set(values).size === values.length, 'must not repeat a value');

const upstreamSchema = z
  .object({
    name: z
      .string()
      .regex(/^[a-z][a-z0-9-]{0,39}$/, 'must be lower-case letters, digits and hyphens, starting with a letter')
      .refine((name) => !RESERVED_NAMES.includes(name), 'is taken by another provider'),
    environment: z.enum(['test', 'live']),
    /** What the person is told to use ("Suomi.fi"); the name when absent. */
    displayName: z.string().min(1).max(60).optional(),
    /** Its logo on the OpenID front's chooser: a path on the service's own origin, no other site. */
    logo: z
      .string()
      .regex(/^\/[\w.~/-]{1,200}$/, 'must be a path on this origin such as /brand/suomifi.svg')
      .refine((path) => !path.startsWith('//'), 'must be a path on this origin, not another host')
      .optional(),
    /** Path of the IdP's SAML metadata (an EntityDescriptor with an IDPSSODescriptor). */
    metadata: z.string().min(1),
    /** Our SP's entityID at this IdP; `{PUBLIC_BASE_URL}/upstream/{name}/metadata` when absent. */
    entityId: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional(),
    /** Paths of our SP's PEM private key and certificate: AuthnRequests are signed, encrypted assertions decrypted with them. */
    spPrivateKey: z.string().min(1),
    spCertificate: z.string().min(1),
    /** The IdP encrypts its assertions (Suomi.fi does); then an unencrypted one is refused. */
    encryptedAssertions: z.boolean().default(false),
    /** The AuthnContextClassRef values asked for (RequestedAuthnContext, exact); a Response with another is refused. */
    authnContexts: distinctList.optional(),
    /**
     * The second-level status codes by which the IdP says the person cancelled (failed `userCancel`);
     * the Swedish eID Framework's cancel code when absent. Any other error status is `providerError`.
     */
    cancelStatusCodes: distinctList.default(['http://id.elegnamnden.se/status/1.0/cancel']),
    /** The attribute Names of the person's data; a personal number or a national identifier is required. */
    attributes: z
      .object({
        personalNumber: attributeName.optional(),
        nationalId: attributeName.optional(),
        name: attributeName.optional(),
        givenName: attributeName.optional(),
        surname: attributeName.optional(),
        birthdate: attributeName.optional(),
      })
      .strict()
      .refine((a) => a.personalNumber || a.nationalId, 'must name a personalNumber or a nationalId attribute'),
    /** The acr values it answers to on the OpenID front; absent: not offered there. */
    frontAcrValues: distinctList.optional(),
    /** The AuthnContextClassRef values it meets on the SAML front (docs/saml.md); absent: not offered there. */
    samlAuthnContexts: distinctList.optional(),
    country: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as FI'),
  })
  .strict()
  .refine((u) => !u.samlAuthnContexts || u.frontAcrValues, { path: ['samlAuthnContexts'], message: 'needs frontAcrValues too' });

type UpstreamSamlEntry = z.infer<typeof upstreamSchema>;

/** One upstream SAML IdP, validated, with its metadata, key and certificate read. */
export interface UpstreamSamlConfig extends Omit<UpstreamSamlEntry, 'metadata' | 'spPrivateKey' | 'spCertificate' | 'environment'> {
  environment: ApiKeyEnvironment;
  /** The IdP's metadata XML. */
  metadata: string;
  /** The IdP's entityID and its HTTP-Redirect SSO endpoint, from the metadata. */
  idpEntityId: string;
  ssoUrl: string;
  spPrivateKey: string;
  spCertificate: string;
}

/** Why a bad SAML_UPSTREAMS stops the start: the upstream and the field, never a value. */
export class UpstreamSamlConfigError extends Error {
  override name = 'UpstreamSamlConfigError';
}

function readPem(path: string, where: string, check: (pem: string) => unknown, kind: string): string {
  try {
    const pem = readFileSync(path, 'utf8');
    check(pem);
    return pem;
  } catch {
    throw new UpstreamSamlConfigError(`${where} is not a readable PEM ${kind} file`);
  }
}

/** The IdP's entityID and Redirect SSO endpoint; we always sign, so the IdP must want signed requests. */
function readMetadata(path: string, who: string): Pick<UpstreamSamlConfig, 'metadata' | 'idpEntityId' | 'ssoUrl'> {
  const where = `${who}, field metadata`;
  let metadata: string;
  try {
    metadata = readFileSync(path, 'utf8');
    assertSafeXml(metadata);
  } catch {
    throw new UpstreamSamlConfigError(`${where} is not a readable SAML metadata file without a DTD, at most 64 KiB`);
  }
  let idp;
  try {
    idp = samlify().IdentityProvider({ metadata });
  } catch {
    throw new UpstreamSamlConfigError(`${where} is not SAML metadata of an IdP`);
  }
  const meta = idp.entityMeta;
  const ssoUrl = meta.getSingleSignOnService('redirect');
  if (!meta.getEntityID()) throw new UpstreamSamlConfigError(`${where} has no entityID`);
  if (typeof ssoUrl !== 'string') throw new UpstreamSamlConfigError(`${where} has no HTTP-Redirect SingleSignOnService`);
  if (!meta.isWantAuthnRequestsSigned()) throw new UpstreamSamlConfigError(`${where} must have WantAuthnRequestsSigned="true"`);
  return { metadata, idpEntityId: meta.getEntityID(), ssoUrl };
}

/** Parses and checks the upstreams file (docs/saml.md, "Upstream SAML e-IDs"); throws naming the upstream and the field. */
export function parseSamlUpstreams(text: string): UpstreamSamlConfig[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new UpstreamSamlConfigError('the file is not JSON');
  }
  if (!Array.isArray(raw)) throw new UpstreamSamlConfigError('the file must hold a list of upstreams');
  const seen = new Set<string>();
  return raw.map((entry: unknown, index) => {
    const label = (entry as { name?: unknown })?.name;
    const who = typeof label === 'string' ? `upstream "${label}"` : `upstream #${index + 1}`;
    const parsed = upstreamSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : '(entry)');
      throw new UpstreamSamlConfigError(`${who}, field ${field}: ${issue.message}`);
    }
    const u = parsed.data;
    if (seen.has(u.name)) throw new UpstreamSamlConfigError(`${who}, field name: is used twice`);
    seen.add(u.name);
    const spPrivateKey = readPem(u.spPrivateKey, `${who}, field spPrivateKey`, (pem) => createPrivateKey(pem), 'private key');
    const spCertificate = readPem(u.spCertificate, `${who}, field spCertificate`, (pem) => new X509Certificate(pem), 'certificate');
    if (!new X509Certificate(spCertificate).checkPrivateKey(createPrivateKey(spPrivateKey)))
      throw new UpstreamSamlConfigError(`${who}, field spCertificate: does not match spPrivateKey`);
    return { ...u, ...readMetadata(u.metadata, who), spPrivateKey, spCertificate };
  });
}

/** The fragment of the start's validation: SAML_UPSTREAMS is a file path, read and checked with the rest. */
export const UPSTREAM_SAML_ENV = {
  SAML_UPSTREAMS: fileVariable<UpstreamSamlConfig[]>([], (text) => {
    try {
      return { value: parseSamlUpstreams(text) };
    } catch (error) {
      if (!(error instanceof UpstreamSamlConfigError)) throw error;
      return { problems: [error.message] };
    }
  }),
};

/** One name per provider across both upstream files; plain HTTP SSO is for local test IdPs only. */
export function checkUpstreamSamlEnv(
  env: { SAML_UPSTREAMS: UpstreamSamlConfig[]; OIDC_UPSTREAMS: UpstreamConfig[] },
  { production }: EnvContext,
  issue: EnvIssue,
): void {
  const oidcNames = new Set(env.OIDC_UPSTREAMS.map((u) => u.name));
  for (const upstream of env.SAML_UPSTREAMS) {
    if (oidcNames.has(upstream.name)) issue('SAML_UPSTREAMS', `upstream "${upstream.name}", field name: is an OIDC_UPSTREAMS name too`);
    if (production && upstream.ssoUrl.startsWith('http:'))
      issue(
        'SAML_UPSTREAMS',
        `upstream "${upstream.name}", field metadata: its SingleSignOnService must be https when NODE_ENV=production`,
      );
  }
}
