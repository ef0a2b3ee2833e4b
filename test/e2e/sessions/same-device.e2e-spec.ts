import { ApiKeysService } from '../../../src/api-keys/api-keys.service.js';
import { SessionSettlement } from '../../../src/sessions/settlement/session-settlement.js';
import { useE2eApp } from '../../support/e2e.js';
import { expectProblem, expectValidationProblem } from '../../support/problem.js';

const RETURN_URL = 'https://rp.example/login/done?step=2';

describe('Same-device flow: launchUrl, the simulated app, returnUrl and its nonce', () => {
  const e2e = useE2eApp({ stopBackgroundJobs: true, withKey: true, freezeClock: true });

  const start = (body: object) =>
    e2e.http
      .post('/api/v1/auth/simulator/start')
      .set('x-api-key', e2e.key)
      .send({ endUserIp: '192.0.2.10', ...body });
  const poll = (id: string) => e2e.http.post(`/api/v1/auth/${id}/poll`).set('x-api-key', e2e.key);
  const confirmReturn = (id: string, nonce: string) => e2e.http.post(`/api/v1/auth/${id}/return`).set('x-api-key', e2e.key).send({ nonce });

  /** The person taps a button on the simulated app page; answers where the app sends the browser. */
  const tapInApp = async (launchUrl: string, action: 'approve' | 'cancel') => {
    const { pathname, search, searchParams } = new URL(launchUrl);
    const page = await e2e.http.get(`${pathname}${search}`).expect(200);
    expect(page.text).toContain('name="action" value="approve"');
    const answer = await e2e.http
      .post(pathname)
      .type('form')
      .send({ autostarttoken: searchParams.get('autostarttoken'), action });
    expect(answer.status).toBe(303);
    return answer.headers.location;
  };

  /** Starts with a returnUrl and plays the app: approve, back to the RP's page with the nonce. */
  const startAndApprove = async () => {
    const started = (await start({ returnUrl: RETURN_URL }).expect(200)).body;
    const landing = await tapInApp(started.launchUrl, 'approve');
    return { sessionId: started.sessionId as string, landing, nonce: new URL(landing).searchParams.get('eidgw_nonce')! };
  };

  const complete = async (sessionId: string) => {
    e2e.clock.advance(4_000);
    await e2e.app.get(SessionSettlement).collectDue();
    expect((await poll(sessionId).expect(200)).body.status).toBe('complete');
  };

  it("should answer launchUrl: the simulator's own app page for the autostart token", async () => {
    const started = (await start({}).expect(200)).body;
    expect(started.launchUrl).toBe(`${new URL(started.kioskUrl).origin}/simulator/app?autostarttoken=${started.autoStartToken}`);
    const page = await e2e.http
      .get(`/simulator/app?autostarttoken=${started.autoStartToken}`)
      .expect(200)
      .expect('content-type', /^text\/html/);
    const csp = page.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src|unsafe-inline/);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    // Without a returnUrl the app says "done" and the person goes back by hand.
    const answer = await e2e.http
      .post('/simulator/app')
      .type('form')
      .send({ autostarttoken: started.autoStartToken, action: 'approve' })
      .expect(200);
    expect(answer.text).toContain('data-state="done"');
    // A used or unknown token opens nothing.
    await e2e.http.get(`/simulator/app?autostarttoken=${started.autoStartToken}`).expect(409);
    await e2e.http.get('/simulator/app?autostarttoken=00000000-0000-4000-8000-000000000000').expect(404);
    await e2e.http.get('/simulator/app?autostarttoken=not-a-token').expect(404);
  });

  it('should send the person back to the returnUrl with a fresh 128-bit nonce, before any fragment of it', async () => {
    const { landing, nonce } = await startAndApprove();
    expect(landing).toBe(`${RETURN_URL}&eidgw_nonce=${nonce}`);
    expect(Buffer.from(nonce, 'base64url')).toHaveLength(16);
    const other = await startAndApprove();
    expect(other.nonce).not.toBe(nonce);
  });

  it('should answer a matching return with the poll body, pending first, then complete only once', async () => {
    const { sessionId, nonce } = await startAndApprove();
    const early = await confirmReturn(sessionId, nonce).expect(200);
    expect(early.body).toMatchObject({ sessionId, status: 'pending' });

    await complete(sessionId);
    const accepted = await confirmReturn(sessionId, nonce).expect(200);
    expect(accepted.body).toMatchObject({ sessionId, status: 'complete', user: { personalNumber: '199001011239' } });

    // Once only: the same nonce again (a reload, a replay) is refused, and that is not counted as a wrong one.
    expectProblem(await confirmReturn(sessionId, nonce), 409, 'return_nonce_mismatch');
    expectProblem(await confirmReturn(sessionId, nonce), 409, 'return_nonce_mismatch');
    expect((await poll(sessionId).expect(200)).body.status).toBe('complete');
  });

  it('should count wrong nonces and fail a pending session at the third, withdrawing the order', async () => {
    const started = (await start({ returnUrl: RETURN_URL }).expect(200)).body;
    const wrong = 'AAAAAAAAAAAAAAAAAAAAAA';
    for (let i = 0; i < 2; i++) expectProblem(await confirmReturn(started.sessionId, wrong), 409, 'return_nonce_mismatch');
    expect((await poll(started.sessionId).expect(200)).body.status).toBe('pending');
    expectProblem(await confirmReturn(started.sessionId, wrong), 409, 'return_nonce_mismatch');

    const failed = (await poll(started.sessionId).expect(200)).body;
    expect(failed).toMatchObject({ status: 'failed', hintCode: 'returnNonceMismatch', userMessage: { code: 'RFA22' } });
    // The app can no longer pick the order up.
    await e2e.http.get(`/simulator/app?autostarttoken=${started.autoStartToken}`).expect(409);
  });

  it('should not count wrong nonces from a read-only key: it can neither fail a pending session nor lock its return', async () => {
    const { key: readOnly } = await e2e.app
      .get(ApiKeysService)
      .create({ teamId: e2e.team.id, environment: 'test', scopes: ['sessions:read'] });
    const { sessionId, nonce } = await startAndApprove();
    for (let i = 0; i < 4; i++) {
      const res = await e2e.http
        .post(`/api/v1/auth/${sessionId}/return`)
        .set('x-api-key', readOnly)
        .send({ nonce: `${nonce}x` });
      expectProblem(res, 409, 'return_nonce_mismatch');
    }
    expect((await poll(sessionId).expect(200)).body.status).toBe('pending');
    await complete(sessionId);
    expect((await confirmReturn(sessionId, nonce).expect(200)).body.status).toBe('complete');
  });

  it('should lock the return of a complete session after three wrong nonces, the right one included', async () => {
    const { sessionId, nonce } = await startAndApprove();
    await complete(sessionId);
    for (let i = 0; i < 3; i++) expectProblem(await confirmReturn(sessionId, `${nonce}x`), 409, 'return_nonce_mismatch');
    expectProblem(await confirmReturn(sessionId, nonce), 409, 'return_nonce_mismatch');
    // A complete session stays complete: the RP decides what a locked return means.
    expect((await poll(sessionId).expect(200)).body.status).toBe('complete');
  });

  it('should refuse a return for a session without returnUrl, and a malformed nonce without counting it', async () => {
    const plain = (await start({}).expect(200)).body;
    expectProblem(await confirmReturn(plain.sessionId, 'AAAAAAAAAAAAAAAAAAAAAA'), 409, 'return_nonce_mismatch');

    const { sessionId, nonce } = await startAndApprove();
    for (const bad of ['not base64url!', 'A'.repeat(65)]) {
      expect(expectValidationProblem(await confirmReturn(sessionId, bad))).toEqual(['/nonce']);
    }
    await complete(sessionId);
    await confirmReturn(sessionId, nonce).expect(200);
    expectProblem(await confirmReturn('00000000-0000-4000-8000-000000000000', nonce), 404, 'session_not_found');
  });

  it.each([
    ['ftp://rp.example/return', /https/],
    ['https://user:secret@rp.example/return', /user name or password/],
    ['https://rp.example/return?eidgw_nonce=mine', /eidgw_nonce/],
    [`https://rp.example/${'a'.repeat(470)}`, /at most 477/],
  ])('should refuse the returnUrl %s before any order is made', async (returnUrl, detail) => {
    const refused = await start({ returnUrl });
    expectValidationProblem(refused);
    expect(refused.body.errors).toEqual([{ pointer: '/returnUrl', detail: expect.stringMatching(detail) }]);
  });

  it('should accept an http returnUrl outside production', async () => {
    const started = (await start({ returnUrl: 'http://localhost:8080/done' }).expect(200)).body;
    expect(await tapInApp(started.launchUrl, 'cancel')).toMatch(/^http:\/\/localhost:8080\/done\?eidgw_nonce=[A-Za-z0-9_-]{22}$/);
  });

  it("should carry BankID's user message in pending and failed answers, worded for how the order was opened", async () => {
    const qr = (await start({}).expect(200)).body;
    expect((await poll(qr.sessionId).expect(200)).body.userMessage).toEqual({
      code: 'RFA1',
      sv: 'Starta BankID-appen i din mobil och skanna QR-koden.',
      en: 'Start the BankID app on your phone and scan the QR code.',
    });
    const sameDevice = (await start({ returnUrl: RETURN_URL }).expect(200)).body;
    expect((await poll(sameDevice.sessionId).expect(200)).body.userMessage).toMatchObject({
      code: 'RFA13',
      en: 'Trying to start your BankID app.',
    });
    await tapInApp(sameDevice.launchUrl, 'cancel');
    e2e.clock.advance(2_500);
    await e2e.collect();
    expect((await poll(sameDevice.sessionId).expect(200)).body).toMatchObject({
      status: 'failed',
      hintCode: 'userCancel',
      userMessage: { code: 'RFA6', sv: 'Åtgärden avbruten.', en: 'Action cancelled.' },
    });
  });
});
