import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { registerAs, type ConfigType } from '@nestjs/config';
import { z } from 'zod';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { validatedEnv } from '../../config/env.validation.js';

// Names the service's own providers and the family already use (docs/upstream-oidc.md).
const RESERVED_NAMES = ['simulator', 'bankid', 'freja', 'oidc'];

const claimName = z.string().min(1).max(200);

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
    clientId: z.string().min(1),
    clientAuth: z.enum(['private_key_jwt', 'client_secret_basic']),
    clientSecret: z.string().min(1).optional(),
    /** Path of a PEM private key: client assertions and request objects are signed with it. */
    privateKey: z.string().min(1).optional(),
    signingAlg: z.enum(['RS256', 'PS256', 'ES256']).optional(),
    scope: z.string().regex(/(^|\s)openid(\s|$)/, 'must include openid'),
    acrValues: z.string().min(1).optional(),
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

/** Why a bad OIDC_UPSTREAMS stops the start: the upstream and the field, never a value. */
export class UpstreamConfigError extends Error {
  override name = 'UpstreamConfigError';
}

function readKey(path: string, where: string): KeyObject {
  try {
    return createPrivateKey(readFileSync(path, 'utf8'));
  } catch {
    throw new UpstreamConfigError(`OIDC_UPSTREAMS: ${where} is not a readable PEM private key file`);
  }
}

/** Parses and checks the upstreams file (docs/upstream-oidc.md); throws naming the upstream and the field. */
export function parseUpstreams(text: string, production: boolean): UpstreamConfig[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new UpstreamConfigError('OIDC_UPSTREAMS: the file is not JSON');
  }
  if (!Array.isArray(raw)) throw new UpstreamConfigError('OIDC_UPSTREAMS: the file must hold a list of upstreams');
  const seen = new Set<string>();
  return raw.map((entry: unknown, index) => {
    const label = (entry as { name?: unknown })?.name;
    const who = typeof label === 'string' ? `upstream "${label}"` : `upstream #${index + 1}`;
    const parsed = upstreamSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : '(entry)');
      throw new UpstreamConfigError(`OIDC_UPSTREAMS: ${who}, field ${field}: ${issue.message}`);
    }
    const u = parsed.data;
    if (seen.has(u.name)) throw new UpstreamConfigError(`OIDC_UPSTREAMS: ${who}, field name: is used twice`);
    seen.add(u.name);
    // Plain HTTP is for local test providers only, as for BankID and Freja.
    if (production && u.issuer.startsWith('http:'))
      throw new UpstreamConfigError(`OIDC_UPSTREAMS: ${who}, field issuer: must be https when NODE_ENV=production`);
    return {
      ...u,
      privateKey: u.privateKey ? readKey(u.privateKey, `${who}, field privateKey`) : undefined,
      idTokenEncryptionKey: u.idTokenEncryptionKey ? readKey(u.idTokenEncryptionKey, `${who}, field idTokenEncryptionKey`) : undefined,
    };
  });
}

export const upstreamOidcConfig = registerAs('upstreamOidc', () => {
  const env = validatedEnv();
  const path = process.env.OIDC_UPSTREAMS;
  let text = '[]';
  if (path) {
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      throw new UpstreamConfigError('OIDC_UPSTREAMS: the file cannot be read');
    }
  }
  return {
    upstreams: parseUpstreams(text, env.NODE_ENV === 'production'),
    /** Each call to an upstream (discovery, PAR, token); the person waits on it. */
    timeoutSeconds: 10,
  };
});
export type UpstreamOidcConfig = ConfigType<typeof upstreamOidcConfig>;
