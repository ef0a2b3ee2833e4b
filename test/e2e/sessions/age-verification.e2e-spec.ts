import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { DataCipher } from '../../../src/common/crypto/data-cipher.js';
import { completionAad, evidenceAad, resultTokenAad } from '../../../src/sessions/session-encryption.js';
import { SessionSettlement } from '../../../src/sessions/settlement/session-settlement.js';
import { useE2eApp } from '../../support/e2e.js';
import { captureLogs, decodedTokensIn } from '../../support/log-capture.js';
import { expectMatchesSchema } from '../../support/openapi.js';
import { expectValidationProblem } from '../../support/problem.js';
import { ageSessionOrdersRevealed } from '../../support/provider-orders.js';
import { VERIFIED_EVIDENCE, verifyResultToken } from '../../support/result-token.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { createEndpoint } from '../../support/webhooks.js';

// Born 7 December 2008: 18 on the day the clock shows (noon in Stockholm).
const ADULT = '200812079804';
const TOMORROWS_ADULT = '200812089803';
const COORDINATION = '200812679801';
/** A session that is not age-only names the person: one the privacy test below does not look for. */
const IDENTIFIED = '198507099805';
const NAME = { givenName: 'Ålderstina', surname: 'Hemligsdotter' };
const TODAY = Date.parse('2026-12-07T11:00:00Z');

/** docs/age-verification.md: an age-only session answers, signs, sends and keeps the age answer alone. */
describe('Age verification (issue 43)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'eidgw-age-'));
  // A data directory of its own: the simulator's CA is made at boot on TODAY, so its evidence verifies on TODAY
  // (a CA another file made on the wall clock is younger than TODAY once the calendar moves on).
  const e2e = useE2eApp({
    withKey: true,
    freezeClock: () => TODAY,
    env: () => ({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'debug', DATA_DIR: dataDir }),
  });
  let logLines: string[] = [];
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    logLines = captureLogs(e2e.app);
    receiver = await WebhookReceiver.start();
    await createEndpoint(e2e.app, e2e.team.id, { url: receiver.url() });
  });
  afterAll(async () => {
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = (body: object, path = '/api/v1/auth/simulator/start') => e2e.http.post(path).set('x-api-key', e2e.key).send(body);
  const poll = (id: string) =>
    e2e.http
      .post(`/api/v1/auth/${id}/poll`)
      .set('x-api-key', e2e.key)
      .expect(200)
      .expect((res) => expectMatchesSchema(res, 'POST /api/v1/auth/{sessionId}/poll'));

  /** An age session approved in the simulator's app by the person with this number, collected as the background job does. */
  const ageSession = async (personalNumber: string, ageOver = 18) => {
    const started = await start({ endUserIp: '192.0.2.10', ageOver, metadata: { orderId: 'age-1' } }).expect(200);
    expect(started.body).toMatchObject({ status: 'pending', ageOver });
    await e2e.http
      .post('/api/v1/simulator/scan')
      .send({ autoStartToken: started.body.autoStartToken, personalNumber, ...NAME })
      .expect(200);
    e2e.clock.advance(2_500);
    await e2e.app.get(SessionSettlement).collectDue();
    return started.body.sessionId as string;
  };

  it('should refuse an age other than 15, 16, 18 or 21, and an age on a signature, as problem details', async () => {
    for (const ageOver of [17, 0, 99, 'eighteen'])
      expect(expectValidationProblem(await start({ endUserIp: '192.0.2.10', ageOver }).expect(400))).toContain('/ageOver');
    const sign = await start({ endUserIp: '192.0.2.10', userVisibleData: 'Sign', ageOver: 18 }, '/api/v1/sign/simulator/start').expect(400);
    expect(expectValidationProblem(sign)).toContain('/ageOver');
  });

  it('should answer, sign and send only the age answer of an 18-year-old, never who they are', async () => {
    const sessionId = await ageSession(ADULT);
    const polled = (await poll(sessionId)).body;
    expect(polled).toEqual({
      sessionId,
      provider: 'simulator',
      environment: 'test',
      operation: 'auth',
      channel: 'app',
      status: 'complete',
      ageVerification: { ageOver: 18, result: true, country: 'SE', source: 'personal-number' },
      completedAt: expect.any(String),
      evidence: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/), verification: VERIFIED_EVIDENCE },
      resultToken: expect.any(String),
    });
    const claims = await verifyResultToken(e2e.http, polled.resultToken, e2e.team.id);
    expect(claims).toMatchObject({ ageVerification: polled.ageVerification, evidenceSha256: polled.evidence.sha256 });
    expect(claims).not.toHaveProperty('user');
    expect(claims).not.toHaveProperty('device');

    const [received] = await receiver.waitForRequests(1);
    // Its signature is the webhooks suite's: the clock here is frozen ahead of the wall clock it is checked against.
    const event = JSON.parse(received.body) as { type: string; data: object };
    expect(event.type).toBe('auth.session.completed');
    expect(event.data).toEqual({ ...polled, metadata: { orderId: 'age-1' } });
  });

  it('should answer false the day before the 18th birthday, and 16 is met', async () => {
    expect((await poll(await ageSession(TOMORROWS_ADULT))).body.ageVerification).toEqual({
      ageOver: 18,
      result: false,
      country: 'SE',
      source: 'personal-number',
    });
    expect((await poll(await ageSession(TOMORROWS_ADULT, 16))).body.ageVerification.result).toBe(true);
  });

  it('should answer age_unknown for a coordination number', async () => {
    expect((await poll(await ageSession(COORDINATION))).body.ageVerification).toEqual({
      ageOver: 18,
      result: null,
      country: 'SE',
      source: 'personal-number',
      reason: 'age_unknown',
    });
  });

  it('should answer the age alone on the phone channel too', async () => {
    const started = await start({ personalNumber: ADULT, callInitiator: 'RP', ageOver: 21 }, '/api/v1/phone/auth/simulator/start').expect(
      200,
    );
    await e2e.http
      .post('/api/v1/simulator/phone')
      .send({ personalNumber: ADULT, action: 'approve', ...NAME })
      .expect(200);
    e2e.clock.advance(2_500);
    await e2e.app.get(SessionSettlement).collectDue();
    const polled = (await poll(started.body.sessionId)).body;
    expect(polled).toMatchObject({
      channel: 'phone',
      ageVerification: { ageOver: 21, result: false, country: 'SE', source: 'personal-number' },
    });
    expect(polled).not.toHaveProperty('user');
  });

  it("should leave the provider's order of a session that is not age-only as it was, until the retention purge", async () => {
    const started = await start({ endUserIp: '192.0.2.10' }).expect(200);
    await e2e.http
      .post('/api/v1/simulator/scan')
      .send({ autoStartToken: started.body.autoStartToken, personalNumber: IDENTIFIED })
      .expect(200);
    e2e.clock.advance(2_500);
    await e2e.app.get(SessionSettlement).collectDue();
    expect((await poll(started.body.sessionId)).body.user).toMatchObject({ personalNumber: IDENTIFIED });
    const [order] = await e2e.app.get(DataSource).query(
      `SELECT o.user_enc IS NOT NULL AS "user", o.evidence_enc IS NOT NULL AS evidence
           FROM simulator_orders o JOIN sessions s ON s.order_ref = o.order_ref::text WHERE s.id = $1`,
      [started.body.sessionId],
    );
    expect(order).toEqual({ user: true, evidence: true });
  });

  it('should leave no personal number or name in any table, stored answer or log line after age sessions', async () => {
    const sessionId = await ageSession(ADULT);
    await poll(sessionId);
    const database = e2e.app.get(DataSource);
    const tables: { name: string }[] = await database.query(
      `SELECT quote_ident(table_name) AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    expect(tables.length).toBeGreaterThan(10);
    const secrets = [ADULT, ADULT.slice(2), TOMORROWS_ADULT, COORDINATION, NAME.givenName, NAME.surname];
    const found = (text: string) => secrets.filter((secret) => text.includes(secret));
    for (const { name } of tables) {
      const rows: { row: string }[] = await database.query(`SELECT t::text AS row FROM ${name} t`);
      const text = rows.map(({ row }) => row).join('\n');
      expect({ table: name, found: found(text + decodedTokensIn(text).join('\n')) }).toEqual({ table: name, found: [] });
    }
    // The session's encrypted columns hold the age answer alone.
    const cipher = e2e.app.get(DataCipher);
    const [row] = await database.query(`SELECT completion_enc, evidence_enc, result_token_enc FROM sessions WHERE id = $1`, [sessionId]);
    const decrypted = [
      cipher.decrypt(row.completion_enc, completionAad(sessionId)),
      cipher.decrypt(row.evidence_enc, evidenceAad(sessionId)),
      ...decodedTokensIn(cipher.decrypt(row.result_token_enc, resultTokenAad(sessionId))),
    ].join('\n');
    expect(found(decrypted)).toEqual([]);
    expect(JSON.parse(cipher.decrypt(row.completion_enc, completionAad(sessionId)))).toEqual({
      ageVerification: { ageOver: 18, result: true, country: 'SE', source: 'personal-number' },
    });
    const logs = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(0);
    expect(found(logs + decodedTokensIn(logs).join('\n'))).toEqual([]);
    // Nor does the simulator's own order book, decrypted, of any age session of this suite (app and phone).
    expect(found(await ageSessionOrdersRevealed(e2e.app))).toEqual([]);
  });
});
