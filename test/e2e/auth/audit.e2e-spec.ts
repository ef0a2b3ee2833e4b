import { DataSource } from 'typeorm';
import { AuditPurgeJob } from '../../../src/audit/audit-purge.job.js';
import { TokensService } from '../../../src/tokens/tokens.service.js';
import { UsersService } from '../../../src/users/users.service.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { useE2eApp } from '../../support/e2e.js';
import { expectMatchesSchema } from '../../support/openapi.js';
import { expectProblem, expectValidationProblem } from '../../support/problem.js';

interface AuditRow {
  action: string;
  actor: string;
  actorType: string;
  environment?: string;
  targetId?: string;
  clientAddress?: string;
  details?: Record<string, unknown>;
}

describe('The audit log and the members (docs/audit.md)', () => {
  // The endpoint below is never sent to (no session ends); a loopback URL needs no DNS.
  const e2e = useE2eApp({ withKey: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  let bearer: string;
  let otherBearer: string;
  let otherTeamId: string;
  let selfId: string;

  async function member(teamId: string, email: string) {
    const user = await e2e.app.get(UsersService).create({ teamId, email });
    return { user, bearer: `Bearer ${(await e2e.app.get(TokensService).issue({ userId: user.id, teamId, clientId: 'test' })).token}` };
  }

  const audit = async (filterModel: object = {}, authorization = bearer): Promise<AuditRow[]> => {
    const res = await e2e.http
      .post('/api/v1/audit-events')
      .set('authorization', authorization)
      .send({ startRow: 0, endRow: 100, filterModel })
      .expect(200);
    expectMatchesSchema(res, 'POST /api/v1/audit-events');
    return res.body.rows;
  };

  beforeAll(async () => {
    const self = await member(e2e.team.id, 'auditor@example.com');
    bearer = self.bearer;
    selfId = self.user.id;
    const other = await createTeamWithKey(e2e.app);
    otherTeamId = other.team.id;
    otherBearer = (await member(other.team.id, 'other-auditor@example.com')).bearer;
  });

  it('should record a key created and revoked with who, where from and which environment, never the secret', async () => {
    const created = await e2e.http
      .post('/api/v1/api-keys')
      .set('authorization', bearer)
      .send({ name: 'checkout', environment: 'live' })
      .expect(201);
    await e2e.http.post(`/api/v1/api-keys/${created.body.id}/revoke`).set('authorization', bearer).expect(200);
    const rows = await audit();
    expect(rows.slice(0, 2)).toEqual([
      expect.objectContaining({ action: 'api_key.revoked', targetId: created.body.id, environment: 'live', details: { name: 'checkout' } }),
      expect.objectContaining({ action: 'api_key.created', targetId: created.body.id, environment: 'live' }),
    ]);
    expect(rows[0]).toMatchObject({
      actor: 'auditor@example.com',
      actorType: 'member',
      targetType: 'api_key',
      clientAddress: expect.any(String),
    });
    expect(JSON.stringify(rows)).not.toContain(created.body.key);
  });

  it('should keep the walls: another team sees none of it, and an environment filter keeps to its environment', async () => {
    expect(await audit({}, otherBearer)).toEqual([]);
    expect((await audit({ environment: { filterType: 'set', values: ['test'] } })).map((row) => row.action)).not.toContain(
      'api_key.revoked',
    );
    expect((await audit({ environment: { filterType: 'set', values: ['live'] } })).every((row) => row.environment === 'live')).toBe(true);
  });

  it('should record webhook endpoint changes and answer the delete with 204 and no body', async () => {
    const created = await e2e.http
      .post('/api/v1/webhook-endpoints')
      .set('authorization', bearer)
      .send({ url: 'http://127.0.0.1:9/eid', environment: 'test' })
      .expect(201);
    await e2e.http.patch(`/api/v1/webhook-endpoints/${created.body.id}`).set('authorization', bearer).send({ enabled: false }).expect(200);
    await e2e.http.post(`/api/v1/webhook-endpoints/${created.body.id}/rotate-secret`).set('authorization', bearer).expect(200);
    const deleted = await e2e.http.delete(`/api/v1/webhook-endpoints/${created.body.id}`).set('authorization', bearer).expect(204);
    expect(deleted.text).toBe('');
    const rows = await audit({ targetType: { filterType: 'set', values: ['webhook_endpoint'] } });
    expect(rows.map((row) => row.action)).toEqual([
      'webhook_endpoint.deleted',
      'webhook_endpoint.secret_rotated',
      'webhook_endpoint.changed',
      'webhook_endpoint.created',
    ]);
    expect(rows.every((row) => row.environment === 'test' && row.targetId === created.body.id)).toBe(true);
    expect(rows[2].details).toEqual({ url: 'http://127.0.0.1:9/eid', changed: ['enabled'] });
    expect(JSON.stringify(rows)).not.toContain(created.body.secret);
  });

  it('should record OIDC client changes with the client_id and name, never the secret', async () => {
    const created = await e2e.http
      .post('/api/v1/oidc-clients')
      .set('authorization', bearer)
      .send({ name: 'Portal', redirectUris: ['https://portal.example.com/cb'], environment: 'live' })
      .expect(201);
    const { id, clientId } = created.body as { id: string; clientId: string; clientSecret: string };
    await e2e.http
      .patch(`/api/v1/oidc-clients/${id}`)
      .set('authorization', bearer)
      .send({ redirectUris: ['https://portal.example.com/callback'], maxRisk: 'low' })
      .expect(200);
    const rotated = await e2e.http.post(`/api/v1/oidc-clients/${id}/rotate-secret`).set('authorization', bearer).expect(200);
    const deleted = await e2e.http.delete(`/api/v1/oidc-clients/${id}`).set('authorization', bearer).expect(204);
    expect(deleted.text).toBe('');
    const rows = await audit({ targetType: { filterType: 'set', values: ['oidc_client'] } });
    expect(rows.map((row) => row.action)).toEqual([
      'oidc_client.deleted',
      'oidc_client.secret_rotated',
      'oidc_client.changed',
      'oidc_client.created',
    ]);
    expect(rows.every((row) => row.environment === 'live' && row.targetId === id && row.actor === 'auditor@example.com')).toBe(true);
    expect(rows[3].details).toEqual({ clientId, name: 'Portal' });
    expect(rows[2].details).toEqual({ clientId, name: 'Portal', changed: ['maxRisk', 'redirectUris'] });
    expect(JSON.stringify(rows)).not.toContain(created.body.clientSecret);
    expect(JSON.stringify(rows)).not.toContain(rotated.body.clientSecret);
    expect(JSON.stringify(rows)).not.toContain('portal.example.com');
  });

  it('should list, invite and remove members, never oneself, with their audit entries', async () => {
    const members = (authorization = bearer) => e2e.http.get('/api/v1/members').set('authorization', authorization).expect(200);
    const add = (body: object) => e2e.http.post('/api/v1/members').set('authorization', bearer).send(body);
    expect((await members()).body.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ['auditor@example.com', 'owner'],
    ]);

    const added = await add({ email: 'New.Member@Example.com' }).expect(201);
    expectMatchesSchema(added, 'POST /api/v1/members');
    expect(added.body).toMatchObject({ email: 'new.member@example.com', phone: null, role: 'member', status: 'invited' });
    const byPhone = await add({ phone: '+46701234999' }).expect(201);
    expectProblem(await add({ email: 'new.member@example.com' }).expect(409), 409, 'member_exists');
    expectValidationProblem(await add({}).expect(400));
    expectValidationProblem(await add({ phone: '0701234567' }).expect(400));
    expect((await members()).body).toHaveLength(3);
    expect((await members(otherBearer)).body).toHaveLength(1);

    const remove = (id: string, authorization = bearer) => e2e.http.delete(`/api/v1/members/${id}`).set('authorization', authorization);
    expectProblem(await remove(selfId).expect(409), 409, 'cannot_remove_self');
    expectProblem(await remove(added.body.id, otherBearer).expect(404), 404, 'not_found');
    expectProblem(await remove('not-a-uuid').expect(404), 404, 'not_found');
    expect((await remove(byPhone.body.id).expect(204)).text).toBe('');
    expect((await members()).body.map((m: { id: string }) => m.id)).not.toContain(byPhone.body.id);

    const rows = await audit({ targetType: { filterType: 'set', values: ['member'] } });
    expect(rows.map((row) => [row.action, row.targetId])).toEqual([
      ['member.removed', byPhone.body.id],
      ['member.added', byPhone.body.id],
      ['member.added', added.body.id],
    ]);
    expect(rows[0].details).toEqual({ email: null, phone: '+46701234999' });
  });

  // docs/security.md, round 4: 409 member_exists told any team whether a contact was someone's elsewhere.
  it("should answer a contact that belongs to another team's member exactly as a new one", async () => {
    const shape = (res: { status: number; body: Record<string, unknown> }) => ({
      status: res.status,
      keys: Object.keys(res.body).sort(),
      role: res.body.role,
      status_: res.body.status,
    });
    const add = (body: object) => e2e.http.post('/api/v1/members').set('authorization', bearer).send(body);
    const taken = await add({ email: 'other-auditor@example.com' });
    const fresh = await add({ email: 'nobody-yet@example.com' });
    expect(shape(taken)).toEqual(shape(fresh));
    expect(shape(taken)).toEqual({
      status: 201,
      keys: ['createdAt', 'email', 'id', 'phone', 'role', 'status'],
      role: 'member',
      status_: 'invited',
    });
    // Listed alike, removed alike; the other team's member stays where they are.
    const listed = (await e2e.http.get('/api/v1/members').set('authorization', bearer).expect(200)).body as Record<string, unknown>[];
    const entry = (id: unknown) => listed.find((member) => member.id === id);
    expect(entry(taken.body.id)).toEqual({ ...taken.body });
    expect(entry(fresh.body.id)).toEqual({ ...fresh.body });
    expectProblem(await add({ email: 'other-auditor@example.com' }).expect(409), 409, 'member_exists');
    await e2e.http.delete(`/api/v1/members/${taken.body.id}`).set('authorization', bearer).expect(204);
    await e2e.http.delete(`/api/v1/members/${fresh.body.id}`).set('authorization', bearer).expect(204);
    await e2e.http.get('/api/v1/me').set('authorization', otherBearer).expect(200);
  });

  // docs/security.md, round 4: the entry was written after the change committed, so a failed entry left an unrecorded change.
  it('should make no change whose audit entry cannot be written', async () => {
    const db = e2e.app.get(DataSource);
    const get = async (path: string) =>
      (await e2e.http.get(path).set('authorization', bearer).expect(200)).body as Record<string, unknown>[];
    const staying = await e2e.http.post('/api/v1/members').set('authorization', bearer).send({ email: 'staying@example.com' }).expect(201);
    const key = await e2e.http
      .post('/api/v1/api-keys')
      .set('authorization', bearer)
      .send({ name: 'kept', environment: 'test' })
      .expect(201);
    const [members, keys, endpoints] = [
      await get('/api/v1/members'),
      await get('/api/v1/api-keys'),
      await get('/api/v1/webhook-endpoints'),
    ];
    await db.query(`CREATE FUNCTION test_refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit away'; END $$`);
    await db.query(`CREATE TRIGGER tr_test_refuse_audit BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION test_refuse_audit()`);
    try {
      const send = (method: 'post' | 'delete', path: string, body?: object) =>
        e2e.http[method](path).set('authorization', bearer).send(body).expect(500);
      await send('post', '/api/v1/members', { email: 'unrecorded@example.com' });
      await send('delete', `/api/v1/members/${staying.body.id}`);
      await send('post', '/api/v1/api-keys', { name: 'unrecorded', environment: 'test' });
      await send('post', `/api/v1/api-keys/${key.body.id}/revoke`);
      await send('post', '/api/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/unrecorded', environment: 'test' });
    } finally {
      await db.query(`DROP TRIGGER tr_test_refuse_audit ON audit_events`);
      await db.query(`DROP FUNCTION test_refuse_audit()`);
    }
    expect(await get('/api/v1/members')).toEqual(members);
    expect(await get('/api/v1/api-keys')).toEqual(keys);
    expect(await get('/api/v1/webhook-endpoints')).toEqual(endpoints);
    // The revocation was undone everywhere, the key cache included.
    await e2e.http.post(`/api/v1/api-keys/${key.body.id}/revoke`).set('authorization', bearer).expect(200);
    await e2e.http.delete(`/api/v1/members/${staying.body.id}`).set('authorization', bearer).expect(204);
  });

  // docs/security.md, round 4: members were flat, so any member removed everyone.
  it('should let only owners add and remove members', async () => {
    const plain = await member(e2e.team.id, 'plain-member@example.com');
    expect(plain.user.role).toBe('member');
    const asPlain = (request: ReturnType<typeof e2e.http.post>) => request.set('authorization', plain.bearer);
    expectProblem(await asPlain(e2e.http.post('/api/v1/members').send({ email: 'x@example.com' })).expect(403), 403, 'owner_required');
    expectProblem(await asPlain(e2e.http.delete(`/api/v1/members/${selfId}`)).expect(403), 403, 'owner_required');
    await e2e.http.get('/api/v1/me').set('authorization', bearer).expect(200);
    await e2e.http.delete(`/api/v1/members/${plain.user.id}`).set('authorization', bearer).expect(204);
  });

  it("should end a removed member's access at their next request", async () => {
    const leaving = await member(e2e.team.id, 'leaving@example.com');
    await e2e.http.get('/api/v1/me').set('authorization', leaving.bearer).expect(200);
    await e2e.http.delete(`/api/v1/members/${leaving.user.id}`).set('authorization', bearer).expect(204);
    await e2e.http.get('/api/v1/me').set('authorization', leaving.bearer).expect(401);
  });

  it('should refuse to change an entry, and purge entries past the retention', async () => {
    const db = e2e.app.get(DataSource);
    await expect(db.query(`UPDATE audit_events SET action = 'api_key.created' WHERE team_id = $1`, [e2e.team.id])).rejects.toThrow(
      /append-only/,
    );
    await db.query(
      `INSERT INTO audit_events (id, team_id, occurred_at, actor_type, action, target_type)
       VALUES (gen_random_uuid(), $1, now() - interval '400 days', 'operator', 'api_key.created', 'api_key')`,
      [otherTeamId],
    );
    const before = (await audit()).length;
    expect(await e2e.app.get(AuditPurgeJob).purgeExpired()).toBe(1);
    expect((await audit()).length).toBe(before);
  });

  // docs/security.md, round 4: the trigger refused UPDATE only; DELETE and TRUNCATE rewrote history.
  it('should refuse to delete or truncate entries outside the retention purge', async () => {
    const db = e2e.app.get(DataSource);
    const count = async () => Number((await db.query(`SELECT count(*) AS n FROM audit_events`))[0].n);
    await db.query(
      `INSERT INTO audit_events (id, team_id, occurred_at, actor_type, action, target_type)
       VALUES (gen_random_uuid(), $1, now() - interval '30 days', 'operator', 'api_key.created', 'api_key')`,
      [otherTeamId],
    );
    const before = await count();
    expect(before).toBeGreaterThan(1);
    await expect(db.query(`DELETE FROM audit_events WHERE team_id = $1`, [e2e.team.id])).rejects.toThrow(/append-only/);
    await expect(db.query(`DELETE FROM audit_events WHERE occurred_at < now() - interval '1 day'`)).rejects.toThrow(/append-only/);
    await expect(db.query(`TRUNCATE audit_events`)).rejects.toThrow(/append-only/);
    // Naming a cutoff outside the purge's transaction, or a cutoff in the last day, lets nothing go.
    await db.query(`SELECT set_config('eidgw.audit_purge_before', now()::text, false)`);
    await expect(db.query(`DELETE FROM audit_events WHERE team_id = $1`, [e2e.team.id])).rejects.toThrow(/append-only/);
    await db.query(`SELECT set_config('eidgw.audit_purge_before', '', false)`);
    expect(await count()).toBe(before);
    // The purge still purges what is past the retention, and nothing else.
    expect(await e2e.app.get(AuditPurgeJob).purgeExpired()).toBe(0);
    expect(await count()).toBe(before);
  });

  it('should refuse an unknown column, an API key and no credential', async () => {
    expectValidationProblem(
      await e2e.http
        .post('/api/v1/audit-events')
        .set('authorization', bearer)
        .send({ startRow: 0, endRow: 10, sortModel: [{ colId: 'team_id', sort: 'asc' }] })
        .expect(400),
    );
    expectProblem(
      await e2e.http.post('/api/v1/audit-events').set('x-api-key', e2e.key).send({ startRow: 0, endRow: 10 }).expect(403),
      403,
      'endpoint_not_available',
    );
    expectProblem(await e2e.http.get('/api/v1/members').set('x-api-key', e2e.key).expect(403), 403, 'endpoint_not_available');
    await e2e.http.post('/api/v1/audit-events').send({ startRow: 0, endRow: 10 }).expect(401);
  });
});
