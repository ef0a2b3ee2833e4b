import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, generateKeyPair, jwtVerify, SignJWT, UnsecuredJWT, type JSONWebKeySet } from 'jose';
import { DataSource } from 'typeorm';
import { runCli } from '../../../src/cli/run-cli.js';
import { TeamsService } from '../../../src/teams/teams.service.js';
import { SigningKeysService } from '../../../src/tokens/signing-keys.service.js';
import { TokensService } from '../../../src/tokens/tokens.service.js';
import type { User } from '../../../src/users/user.entity.js';
import { UsersService } from '../../../src/users/users.service.js';
import { createTestApp, TEST_ENCRYPTION_KEY, withEnv } from '../../support/create-test-app.js';
import { NO_IP_BLOCKING } from '../../support/protection-backends.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { itOnPostgres } from '../../support/test-postgres.js';
import { httpOf, useE2eApp } from '../../support/e2e.js';
import { expectMatchesSchema } from '../../support/openapi.js';

const ISSUER = 'http://localhost:3000';
const AUDIENCE = 'eid-gateway';

describe('Team-member tokens: JWKS, rotation, replicas and the bearer guard', () => {
  const e2e = useE2eApp({ env: NO_IP_BLOCKING, freezeClock: true });
  let user: User;

  const me = (token: string, server = e2e.http) =>
    server
      .get('/api/v1/me')
      .set('authorization', `Bearer ${token}`)
      .expect((res) => expectMatchesSchema(res, 'GET /api/v1/me'));
  const issue = (forUser = user, app = e2e.testApp) =>
    app.app.get(TokensService).issue({ userId: forUser.id, teamId: forUser.teamId, clientId: 'test' });
  const jwks = async (): Promise<JSONWebKeySet> =>
    (
      await e2e.http
        .get('/.well-known/jwks.json')
        .expect(200)
        .expect((res) => expectMatchesSchema(res, 'GET /.well-known/jwks.json'))
    ).body;
  const expectInvalidToken = async (token: string) => {
    const res = await me(token).expect(401);
    expect(res.body.code).toBe('invalid_token');
    expect(res.headers['www-authenticate']).toBe('Bearer realm="eid-gateway", error="invalid_token"');
  };

  /** A token signed with our real active key but with claims or header of the caller's choosing. */
  async function signWithOurKey(claims: Record<string, unknown>, header: Record<string, unknown> = {}) {
    const key = await e2e.app.get(SigningKeysService).activeKey();
    const now = Math.floor(e2e.clock.nowMs() / 1000);
    return new SignJWT({
      sub: user.id,
      team: user.teamId,
      iss: ISSUER,
      aud: AUDIENCE,
      iat: now,
      exp: now + 600,
      jti: randomUUID(),
      ...claims,
    })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt', ...header })
      .sign(key.privateKey);
  }

  beforeAll(async () => {
    const { team } = await createTeamWithKey(e2e.app);
    user = await e2e.app.get(UsersService).create({ teamId: team.id, email: 'tokens@example.com' });
  });

  it('should publish only public members of the signing key, cacheable briefly', async () => {
    const res = await e2e.http.get('/.well-known/jwks.json').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.body.keys).toEqual([
      { kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String), kid: expect.any(String), alg: 'ES256', use: 'sig' },
    ]);
    const { token } = await issue();
    expect(decodeProtectedHeader(token).kid).toBe(res.body.keys[0].kid);
    await jwtVerify(token, createLocalJWKSet(res.body), { issuer: ISSUER, audience: AUDIENCE, currentDate: e2e.clock.now() });
  });

  it('should keep the signing key private and encrypted in the database', async () => {
    const [row] = await e2e.app.get(DataSource).query('SELECT public_jwk, private_jwk_enc FROM signing_keys WHERE retired_at IS NULL');
    expect(row.public_jwk).not.toHaveProperty('d');
    expect(row.private_jwk_enc.toString('latin1')).not.toMatch(/"d"\s*:/);
  });

  it.each<[string, () => Promise<string>]>([
    ['garbage', async () => 'not-a-jwt'],
    [
      'a tampered payload',
      async () => {
        const [header, , signature] = (await issue()).token.split('.');
        const payload = Buffer.from(JSON.stringify({ sub: user.id, team: randomUUID(), iss: ISSUER, aud: AUDIENCE })).toString('base64url');
        return `${header}.${payload}.${signature}`;
      },
    ],
    [
      'alg none',
      async () =>
        new UnsecuredJWT({ sub: user.id, team: user.teamId })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setIssuedAt()
          .setExpirationTime('5m')
          .encode(),
    ],
    [
      'HS256 keyed with our public key',
      async () => {
        const [publicKey] = (await jwks()).keys;
        return new SignJWT({ team: user.teamId })
          .setProtectedHeader({ alg: 'HS256', kid: publicKey.kid, typ: 'at+jwt' })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setSubject(user.id)
          .setJti(randomUUID())
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode(JSON.stringify(publicKey)));
      },
    ],
    [
      'a key we never published',
      async () => {
        const { privateKey } = await generateKeyPair('ES256');
        return new SignJWT({ team: user.teamId })
          .setProtectedHeader({ alg: 'ES256', kid: 'stranger', typ: 'at+jwt' })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setSubject(user.id)
          .setJti(randomUUID())
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(privateKey);
      },
    ],
    ['another audience', () => signWithOurKey({ aud: 'someone-else' })],
    ['another issuer', () => signWithOurKey({ iss: 'https://evil.example' })],
    ['another token type', () => signWithOurKey({}, { typ: 'JWT' })],
    ['no team claim', () => signWithOurKey({ team: undefined })],
    ['no kid', () => signWithOurKey({}, { kid: undefined })],
    ["a team that is not the user's", () => signWithOurKey({ team: randomUUID() })],
    ['a user that does not exist', () => signWithOurKey({ sub: randomUUID() })],
  ])('should answer 401 invalid_token to %s', async (_name, token) => {
    await expectInvalidToken(await token());
  });

  it('should accept a token until it expires (with one minute of clock skew), then answer invalid_token', async () => {
    const { token } = await issue();
    await me(token).expect(200);
    e2e.clock.advance(3_600_000 + 59_000);
    await me(token).expect(200);
    e2e.clock.advance(1_000);
    const res = await me(token).expect(401);
    expect(res.body).toMatchObject({ code: 'invalid_token', detail: 'The bearer token has expired; log in again.' });
  });

  it('should answer 403 endpoint_not_available to a token on a public API endpoint, and to an API key on a management one', async () => {
    const { token } = await issue();
    const res = await e2e.http
      .post('/api/v1/auth/simulator/start')
      .set('authorization', `Bearer ${token}`)
      .send({ endUserIp: '192.0.2.1' })
      .expect(403);
    expect(res.body.code).toBe('endpoint_not_available');
    const { key } = await createTeamWithKey(e2e.app, { scopes: ['otp'] });
    expect((await e2e.http.get('/api/v1/me').set('x-api-key', key).expect(403)).body.code).toBe('endpoint_not_available');
    expect(
      (
        await e2e.http
          .post('/ask_for_approval/login-otp')
          .set('authorization', `Bearer ${token}`)
          .send({ email: 'a@example.com' })
          .expect(403)
      ).body.code,
    ).toBe('endpoint_not_available');
  });

  it("should check the user's team subscription like a key's", async () => {
    const teams = e2e.app.get(TeamsService);
    const users = e2e.app.get(UsersService);
    const ended = await teams.create({ name: 'ended', subscriptionEndsAt: new Date(e2e.clock.nowMs() - 1_000) });
    const none = await teams.create({ name: 'none' });
    const endedMember = await users.create({ teamId: ended.id, email: 'ended@example.com' });
    const noneMember = await users.create({ teamId: none.id, email: 'none@example.com' });
    expect((await me((await issue(endedMember)).token).expect(403)).body.code).toBe('subscription_expired');
    expect((await me((await issue(noneMember)).token).expect(403)).body.code).toBe('subscription_required');
  });

  it('should answer missing_token without any credential', async () => {
    expect((await e2e.http.get('/api/v1/me').expect(401)).body.code).toBe('missing_token');
  });

  itOnPostgres('should verify on another replica the tokens this one signed', async () => {
    const replica = await createTestApp(e2e.env);
    try {
      const other = httpOf(replica.app);
      const { token } = await issue();
      expect((await me(token, other).expect(200)).body.user.id).toBe(user.id);
      const { token: fromReplica } = await issue(user, replica);
      expect(decodeProtectedHeader(fromReplica).kid).toBe(decodeProtectedHeader(token).kid);
      await me(fromReplica).expect(200);
      expect((await other.get('/.well-known/jwks.json').expect(200)).body).toEqual(await jwks());
    } finally {
      await replica.close();
    }
  });

  it('should rotate the key with the CLI: old tokens still verify, the JWKS lists both keys until the old tokens expire', async () => {
    const before = await issue();
    const oldKid = decodeProtectedHeader(before.token).kid;
    const rotated = await withEnv({ ...e2e.database.env, DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, LOG_LEVEL: 'silent' }, () =>
      runCli(['tokens', 'rotate-key']),
    );
    expect(rotated).toEqual({
      exitCode: 0,
      output: { kid: expect.any(String), alg: 'ES256', retired: { kid: oldKid, verifyUntil: expect.any(Date) } },
    });
    const newKid = rotated.output.kid;
    expect(newKid).not.toBe(oldKid);

    // This replica picks the new key up for signing at once, and for verifying on first sight of its kid.
    const after = await issue();
    expect(decodeProtectedHeader(after.token).kid).toBe(newKid);
    await me(after.token).expect(200);
    await me(before.token).expect(200);
    const published = await jwks();
    expect(published.keys.map((key) => key.kid)).toEqual([newKid, oldKid]);
    for (const token of [before.token, after.token]) {
      await jwtVerify(token, createLocalJWKSet(published), { issuer: ISSUER, audience: AUDIENCE, currentDate: e2e.clock.now() });
    }

    // Once every token of the old key has expired, the old key is no longer published.
    e2e.clock.advance(3_600_000 + 120_000);
    expect((await jwks()).keys.map((key) => key.kid)).toEqual([newKid]);
  });
});
