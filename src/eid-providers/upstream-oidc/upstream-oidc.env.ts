import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { fileVariable, type EnvContext, type EnvIssue } from '../../config/env-rules.js';

// Names the service's own providers and the family already use (docs/upstream-oidc.md).
const RESERVED_NAMES = ['simulator', 'bankid', 'freja', 'oidc', 'saml', 'eudi', 'openid4vp'];

const claimName = z.string().min(1).max(200);

// The claims the OpenID front issues itself: a business claim may not take their names.
const FRONT_CLAIMS = new Set([
  ...['sub', 'acr', 'amr', 'auth_time', 'country', 'txn', 'eidgw_result', 'iss', 'aud', 'exp', 'iat', 'nonce', 'sid'],
  ...['name', 'given_name', 'family_name', 'birthdate', 'nin', 'nin_issuing_country'],
  'https://id.oidc.se/claim/personalIdentityNumber',
]);
/** Why a name cannot be a business claim on the front, if it cannot. */
const frontClaimProblem = (name: string): string | undefined =>
  !/^[\x21-\x7e]{1,200}$/.test(name)
    ? 'must be a claim name without spaces'
    : FRONT_CLAIMS.has(name)
      ? 'is a claim the service issues itself'
      : undefined;

const upstreamSchema = z
  .object({
    name: z
      .string()
      .regex(/^[a-z][a-z0-9-]{0,39}$/, 'must be lower-case letters, digits and hyphens, starting with a letter')
      .refine((name) => !RESERVED_NAMES.includes(name), 'is taken by another provider'),
    issuer: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }),
    environment: z.enum(['test', 'live']),
    /** What the person is told to use ("BankID (Norge)"); the name when absent. */
    displayName: z.string().min(1).max(60).optional(),
    /** Its logo on the OpenID front's chooser: a path on the service's own origin ("/brand/nbid.svg"), no other site. */
    logo: z
      .string()
      .regex(/^\/[\w.~/-]{1,200}$/, 'must be a path on this origin such as /brand/nbid.svg')
      .refine((path) => !path.startsWith('//'), 'must be a path on this origin, not another host')
      .optional(),
    clientId: z.string().min(1),
    clientAuth: z.enum(['private_key_jwt', 'client_secret_basic']),
    clientSecret: z.string().min(1).optional(),
    /** Path of a PEM private key: client assertions and request objects are signed with it. */
    privateKey: z.string().min(1).optional(),
    signingAlg: z.enum(['RS256', 'PS256', 'ES256']).optional(),
    scope: z.string().regex(/(^|\s)openid(\s|$)/, 'must include openid'),
    acrValues: z.string().min(1).optional(),
    /** The acr values it answers to on the service's OpenID front (docs/upstream-oidc.md); absent: not offered there. */
    frontAcrValues: z
      .array(z.string().regex(/^[\x21-\x7e]{1,200}$/, 'must be acr values without spaces'))
      .min(1)
      .max(20)
      .refine((values) => new Set(values).size === values.length, 'must not repeat a value')
      .optional(),
    requestObject: z.boolean().default(false),
    /** Path of a PEM private key the upstream encrypts id tokens to (JWE). */
    idTokenEncryptionKey: z.string().min(1).optional(),
    claims: z
      .object({
        personalNumber: claimName.optional(),
        nationalId: claimName.optional(),
        name: claimName.optional(),
        givenName: claimName.optional(),
        surname: claimName.optional(),
        birthdate: claimName.optional(),
      })
      .strict()
      .default({}),
    /**
     * Business identities (docs/upstream-oidc.md, "Business identities"): the claim name on the OpenID
     * front → the upstream's claim name ("vatid": "vatid", "https://id.oidc.se/claim/orgNumber": "org_no").
     */
    businessClaims: z
      .record(z.string(), claimName)
      .superRefine((claims, ctx) => {
        const names = Object.keys(claims);
        if (names.length > 20) ctx.addIssue({ code: 'custom', message: 'must name at most 20 claims' });
        for (const name of names) {
          const problem = frontClaimProblem(name);
          if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
        }
      })
      .default({}),
    country: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as NO'),
  })
  .strict()
  .superRefine((u, ctx) => {
    if (u.clientAuth === 'client_secret_basic' && !u.clientSecret)
      ctx.addIssue({ code: 'custom', path: ['clientSecret'], message: 'is required with client_secret_basic' });
    if ((u.clientAuth === 'private_key_jwt' || u.requestObject) && !u.privateKey)
      ctx.addIssue({ code: 'custom', path: ['privateKey'], message: 'is required with private_key_jwt or requestObject' });
  });

type UpstreamEntry = z.infer<typeof upstreamSchema>;

/** One upstream OpenID provider, validated, with its key files read. */
export interface UpstreamConfig extends Omit<UpstreamEntry, 'privateKey' | 'idTokenEncryptionKey' | 'environment'> {
  environment: ApiKeyEnvironment;
  privateKey?: KeyObject;
  idTokenEncryptionKey?: KeyObject;
}

/** Why a bad OIDC_UPSTREAMS stops the start: the upstream and the field, never a value (the variable is named by the report). */
export class UpstreamConfigError extends Error {
  override name = 'UpstreamConfigError';
}

function readKey(path: string, where: string): KeyObject {
  try {
    return createPrivateKey(readFileSync(path, 'utf8'));
  } catch {
    throw new UpstreamConfigError(`${where} is not a readable PEM private key file`);
  }
}

/** Parses and checks the upstreams file (docs/upstream-oidc.md); throws naming the upstream and the field. */
export function parseUpstreams(text: string): UpstreamConfig[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new UpstreamConfigError('the file is not JSON');
  }
  if (!Array.isArray(raw)) throw new UpstreamConfigError('the file must hold a list of upstreams');
  const seen = new Set<string>();
  return raw.map((entry: unknown, index) => {
    const label = (entry as { name?: unknown })?.name;
    const who = typeof label === 'string' ? `upstream "${label}"` : `upstream #${index + 1}`;
    const parsed = upstreamSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : '(entry)');
      throw new UpstreamConfigError(`${who}, field ${field}: ${issue.message}`);
    }
    const u = parsed.data;
    if (seen.has(u.name)) throw new UpstreamConfigError(`${who}, field name: is used twice`);
    seen.add(u.name);
    return {
      ...u,
      privateKey: u.privateKey ? readKey(u.privateKey, `${who}, field privateKey`) : undefined,
      idTokenEncryptionKey: u.idTokenEncryptionKey ? readKey(u.idTokenEncryptionKey, `${who}, field idTokenEncryptionKey`) : undefined,
    };
  });
}

/**
 * The fragment of the start's validation (docs/upstream-oidc.md, docs/providers.md): OIDC_UPSTREAMS is a
 * file path, read, parsed and its keys loaded with the rest of the environment, so a bad file stops the
 * start before anything connects.
 */
export const UPSTREAM_OIDC_ENV = {
  OIDC_UPSTREAMS: fileVariable<UpstreamConfig[]>([], (text) => {
    try {
      return { value: parseUpstreams(text) };
    } catch (error) {
      if (!(error instanceof UpstreamConfigError)) throw error;
      return { problems: [error.message] };
    }
  }),
};

/** Plain HTTP is for local test providers only, as for BankID and Freja. */
export function checkUpstreamOidcEnv(env: { OIDC_UPSTREAMS: UpstreamConfig[] }, { production }: EnvContext, issue: EnvIssue): void {
  if (!production) return;
  for (const upstream of env.OIDC_UPSTREAMS)
    if (upstream.issuer.startsWith('http:'))
      issue('OIDC_UPSTREAMS', `upstream "${upstream.name}", field issuer: must be https when NODE_ENV=production`);
}
