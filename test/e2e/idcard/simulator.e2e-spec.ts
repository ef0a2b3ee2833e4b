import { DataSource } from 'typeorm';
import { COUNTER_LINK_PER_MINUTE, CounterLinksService } from '../../../src/idcard/counter-links.service.js';
import { useE2eApp } from '../../support/e2e.js';
import { teamOfItsOwn } from '../../support/team-member.js';
import { expectProblem } from '../../support/problem.js';
import { VERIFIED_EVIDENCE, verifyResultToken } from '../../support/result-token.js';

describe('The simulator digital ID card: its app shows the card, its verify answers with a XAdES of its test CA', () => {
  const e2e = useE2eApp({ withKey: true, freezeClock: true });

  /** The holder taps "Show ID card" in the simulated app: the code its QR carries. */
  const showIdCard = async (personalNumber = '199001011239'): Promise<string> => {
    const page = await e2e.http.post('/simulator/app/idcard').type('form').send({ personalNumber }).expect(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    const code = /data-qr-code="(BANKIDF\.[^"]+)"/.exec(page.text)?.[1];
    expect(page.text).toContain('<svg');
    return code!;
  };
  const verify = (qrCode: string) => e2e.http.post('/api/v1/idcard/simulator/verify').set('x-api-key', e2e.key).send({ qrCode });

  it('should offer "Show ID card" on the app page opened by itself', async () => {
    const home = await e2e.http.get('/simulator/app').expect(200);

    expect(home.text).toContain('Show ID card');
  });

  it('should verify a shown card once: the holder, both signatures verified against the simulator CA, a result token', async () => {
    const qrCode = await showIdCard('200001151234');

    const answer = (await verify(qrCode).expect(200)).body;

    expect(answer).toMatchObject({
      provider: 'simulator',
      operation: 'idcard',
      channel: 'counter',
      status: 'complete',
      user: { personalNumber: '200001151234', givenName: 'Tess', surname: 'Testsson', age: expect.any(Number) },
      verification: { verificationId: expect.any(String), verifiedAt: e2e.clock.now().toISOString() },
      authentication: { identifiedAt: expect.any(String), orderRef: expect.any(String) },
      evidence: { verification: VERIFIED_EVIDENCE },
    });
    await verifyResultToken(e2e.http, answer.resultToken, e2e.team.id);
    expectProblem(await verify(qrCode), 409, 'qr_expired');
  });

  it('should answer an age-only check with ageVerification from the card, and keep no name or number', async () => {
    const adult = (
      await e2e.http
        .post('/api/v1/idcard/simulator/verify')
        .set('x-api-key', e2e.key)
        .send({ qrCode: await showIdCard('199001011239'), ageOver: 18 })
        .expect(200)
    ).body;
    const child = (
      await e2e.http
        .post('/api/v1/idcard/simulator/verify')
        .set('x-api-key', e2e.key)
        .send({ qrCode: await showIdCard('201501011231'), ageOver: 18 })
        .expect(200)
    ).body;

    expect(adult).toMatchObject({
      operation: 'idcard',
      status: 'complete',
      ageVerification: { ageOver: 18, result: true, country: 'SE', source: 'idcard' },
    });
    expect(child.ageVerification).toMatchObject({ ageOver: 18, result: false, source: 'idcard' });
    for (const answer of [adult, child]) {
      expect(answer).not.toHaveProperty('user');
      expect(answer).not.toHaveProperty('verification');
      expect(JSON.stringify(answer)).not.toMatch(/199001011239|201501011231|Testsson/);
    }
    expectProblem(
      await e2e.http
        .post('/api/v1/idcard/simulator/verify')
        .set('x-api-key', e2e.key)
        .send({ qrCode: await showIdCard(), ageOver: 17 }),
      400,
      'validation_failed',
    );
  });

  it('should refuse a card past its 30 s with 409 qr_expired', async () => {
    const qrCode = await showIdCard();
    e2e.clock.advance(30_000);

    expectProblem(await verify(qrCode), 409, 'qr_expired');
  });

  it('should refuse a code no card of the simulator carries with 409 qr_expired', async () => {
    expectProblem(await verify(`BANKIDF.${crypto.randomUUID()}.${'0'.repeat(32)}`), 409, 'qr_expired');
  });

  describe('counter links', () => {
    const counterVerify = (token: string, qrCode: string) =>
      e2e.http.post('/kiosk/counter/verify').set('authorization', `Counter ${token}`).send({ qrCode });
    const newLink = async () => {
      const created = await e2e.app.get(CounterLinksService).create(e2e.team.id, { label: 'Till 2', provider: 'simulator' });
      return { id: created.id, token: new URL(created.url).hash.replace('#t=', '') };
    };

    it("should answer the counter only the verdict, the holder's name and age, and store the session for the team", async () => {
      const { token } = await newLink();
      const answer = (await counterVerify(token, await showIdCard()).expect(200)).body;

      expect(answer).toEqual({ sessionId: expect.any(String), verified: true, name: 'Tess Testsson', age: expect.any(Number) });
      const polled = await e2e.http.post(`/api/v1/auth/${answer.sessionId}/poll`).set('x-api-key', e2e.key).expect(200);
      expect(polled.body).toMatchObject({ operation: 'idcard', channel: 'counter', status: 'complete' });
    });

    it('should answer an age-only counter ("#…&age=18") the verdict alone, without the name', async () => {
      const { token } = await newLink();
      const answer = (
        await e2e.http
          .post('/kiosk/counter/verify')
          .set('authorization', `Counter ${token}`)
          .send({ qrCode: await showIdCard(), ageOver: 18 })
          .expect(200)
      ).body;

      expect(answer).toEqual({ sessionId: expect.any(String), verified: true, ageVerification: { ageOver: 18, result: true } });
    });

    it('should refuse a wrong token and a revoked link with 401, and list links without their tokens', async () => {
      const { id, token } = await newLink();
      expectProblem(await counterVerify(`eidc_${'x'.repeat(43)}`, await showIdCard()), 401, 'invalid_kiosk_token');
      await e2e.app.get(CounterLinksService).revoke(e2e.team.id, id);

      expectProblem(await counterVerify(token, await showIdCard()), 401, 'invalid_kiosk_token');
      const listed = await e2e.app.get(CounterLinksService).list(e2e.team.id);
      expect(JSON.stringify(listed)).not.toContain(token);
    });

    it(`should allow a link ${COUNTER_LINK_PER_MINUTE} verifications a minute, then 429 until the minute has passed`, async () => {
      const { token } = await newLink();
      const stale = `BANKIDF.${crypto.randomUUID()}.${'0'.repeat(32)}`;
      for (let i = 0; i < COUNTER_LINK_PER_MINUTE; i++) await counterVerify(token, stale).expect(409);

      expectProblem(await counterVerify(token, stale), 429, 'rate_limit_exceeded');
      e2e.clock.advance(60_000);
      await counterVerify(token, stale).expect(409);
    });

    it('should let a member create, list and revoke links through the management API, audited, the URL shown once', async () => {
      const { team, bearer } = await teamOfItsOwn(e2e.app);
      const created = await e2e.http
        .post('/api/v1/counter-links')
        .set('authorization', bearer)
        .send({ label: 'Till 5', environment: 'test', provider: 'simulator' })
        .expect(201);
      expect(created.body).toMatchObject({
        label: 'Till 5',
        environment: 'test',
        provider: 'simulator',
        url: expect.stringMatching(/\/kiosk\/counter#t=eidc_/),
      });

      const listed = await e2e.http.get('/api/v1/counter-links').set('authorization', bearer).expect(200);
      expect(listed.body.data).toEqual([expect.not.objectContaining({ url: expect.anything() })]);
      const revoked = await e2e.http.delete(`/api/v1/counter-links/${created.body.id}`).set('authorization', bearer).expect(200);
      expect(revoked.body.revokedAt).toEqual(expect.any(String));
      const audit = await e2e.app
        .get(DataSource)
        .query(`SELECT action FROM audit_events WHERE team_id = $1 AND action LIKE 'counter_link.%' ORDER BY action`, [team.id]);
      expect(audit.map((row: { action: string }) => row.action)).toEqual(['counter_link.created', 'counter_link.revoked']);
      // An API key never manages counter links.
      await e2e.http.post('/api/v1/counter-links').set('x-api-key', e2e.key).send({ label: 'x' }).expect(403);
    });
  });
});
