import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Adapter, type AdapterPayload } from 'oidc-provider';
import pg from 'pg';
import { oidcConfiguration } from '../../src/oidc/library/oidc-configuration.js';
import { loadOidcLibrary } from '../../src/oidc/library/oidc-library.js';
import { BANKID_PAYMENT } from '../../src/oidc/oidc-payment-details.js';
import { CODE_CHALLENGE, type CodeInit, inBatches, REDIRECT_URI, SCOPE, serveMints } from './mint.js';

/**
 * The limit the OpenID front is measured against: oidc-provider alone, the same version, configured as
 * the service configures it (oidcConfiguration: the same features, claims, algorithms and lifetimes, so
 * the library does the same work per request), with a plain table-backed adapter on the same PostgreSQL
 * (10 connections, like the service's pool). Clients are rows of that table too, as ours are rows of
 * oidc_clients, with the same metadata as the CLI registers. findAccount returns fixed claims. What
 * the service adds around the library (mount, hooks, encrypted adapter, team check) is what is measured.
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10, application_name: 'bench-oidc-bare' });
await pool.query(`CREATE TABLE IF NOT EXISTS bench_oidc_models (model text NOT NULL, id text NOT NULL, payload jsonb NOT NULL,
  grant_id text, uid text, user_code text, consumed_at timestamptz, expires_at timestamptz, PRIMARY KEY (model, id))`);
await pool.query('CREATE INDEX IF NOT EXISTS bench_oidc_models_grant ON bench_oidc_models (grant_id)');

const LIVE = '(expires_at IS NULL OR expires_at > now())';

class TableAdapter implements Adapter {
  constructor(private readonly model: string) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    await pool.query(
      `INSERT INTO bench_oidc_models (model, id, payload, grant_id, uid, user_code, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))
       ON CONFLICT (model, id) DO UPDATE SET payload = $3, grant_id = $4, uid = $5, user_code = $6, expires_at = now() + make_interval(secs => $7)`,
      [this.model, id, payload, payload.grantId ?? null, payload.uid ?? null, payload.userCode ?? null, expiresIn ?? null],
    );
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.findBy('id', id);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findBy('uid', uid);
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findBy('user_code', userCode);
  }

  async consume(id: string): Promise<void> {
    await pool.query('UPDATE bench_oidc_models SET consumed_at = now() WHERE model = $1 AND id = $2', [this.model, id]);
  }

  async destroy(id: string): Promise<void> {
    await pool.query('DELETE FROM bench_oidc_models WHERE model = $1 AND id = $2', [this.model, id]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await pool.query('DELETE FROM bench_oidc_models WHERE grant_id = $1', [grantId]);
  }

  private async findBy(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
    const { rows } = await pool.query<{ payload: AdapterPayload; consumed: number | null }>(
      `SELECT payload, extract(epoch FROM consumed_at)::int AS consumed FROM bench_oidc_models
       WHERE model = $1 AND ${column} = $2 AND ${LIVE}`,
      [this.model, value],
    );
    const row = rows[0];
    if (!row) return undefined;
    return row.consumed ? { ...row.payload, consumed: row.consumed } : row.payload;
  }
}

const { privateKey } = await generateKeyPair('ES256', { extractable: true });
const signingJwk = { ...(await exportJWK(privateKey)), kid: 'bench', alg: 'ES256', use: 'sig' };
const port = Number(process.env.PORT);
const subjectKey = randomBytes(32);
await loadOidcLibrary();
const provider = new Provider(
  `http://127.0.0.1:${port}`,
  oidcConfiguration({
    signingJwk,
    cookieKey: randomBytes(32).toString('base64url'),
    acrValues: ['urn:eidgw:simulator'],
    businessClaims: [],
    adapter: (model: string) => new TableAdapter(model),
    findAccount: (_ctx, accountId) => ({
      accountId,
      claims: () => ({ sub: accountId, name: 'Anna Andersson', given_name: 'Anna', family_name: 'Andersson', birthdate: '1980-01-01' }),
    }),
    pairwiseIdentifier: (clientId, subject) =>
      createHmac('sha256', subjectKey).update(`pairwise\0${clientId}\0${subject}`).digest('base64url'),
    corsAllowed: () => false,
    piiRetentionSeconds: 24 * 3600,
  }),
);

const clientId = process.env.BENCH_CLIENT_ID!;
await new TableAdapter('Client').upsert(clientId, {
  client_id: clientId,
  client_secret: process.env.BENCH_CLIENT_SECRET!,
  client_name: 'Bench RP',
  redirect_uris: [REDIRECT_URI],
  post_logout_redirect_uris: [],
  token_endpoint_auth_method: 'client_secret_basic',
  subject_type: process.env.BENCH_CLIENT_SUBJECT_TYPE as 'public' | 'pairwise',
  require_pushed_authorization_requests: false,
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  authorization_details_types: [BANKID_PAYMENT],
});

serveMints(async (count) => {
  const client = (await provider.Client.find(clientId))!;
  return inBatches(count, 10, async () => {
    const accountId = randomUUID();
    const grant = new provider.Grant({ accountId, clientId });
    grant.addOIDCScope(SCOPE);
    const grantId = await grant.save();
    // @types/oidc-provider still requires v8's `gty`, which v9 no longer has.
    const code = new provider.AuthorizationCode({
      accountId,
      client,
      grantId,
      scope: SCOPE,
      redirectUri: REDIRECT_URI,
      codeChallenge: CODE_CHALLENGE,
      codeChallengeMethod: 'S256',
      acr: 'urn:eidgw:simulator',
      amr: ['simulator'],
      authTime: Math.floor(Date.now() / 1000),
    } as unknown as CodeInit);
    return code.save();
  });
});

provider.listen(port, '127.0.0.1');
// A normal exit on the bench's SIGTERM, so --cpu-prof writes its profile.
process.once('SIGTERM', () => process.exit(0));
