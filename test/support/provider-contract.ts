import { EidProviderRegistry } from '../../src/eid-providers/eid-provider.registry.js';
import { userMessageFor } from '../../src/eid-providers/user-messages.js';
import type { E2eApp } from './e2e.js';
import { startContractLogin } from './oidc-contract-login.js';
import { verifyResultToken } from './result-token.js';

/** What a provider's test gives the contract: its running app and how its e-ID app plays the user. */
export interface ProviderContractHarness {
  provider: string;
  e2e: E2eApp;
  /** How long to move the clock so that the next collect is due. */
  collectMs: number;
  /**
   * The person opens the order in the app and approves it. An upstream that signs in at its own site
   * answers where its callback sends the browser (the session's returnUrl with its nonce), if anywhere.
   */
  approve(sessionId: string): Promise<void | string>;
  /** The person declines in the app: the session fails with `userCancel`. */
  decline(sessionId: string): Promise<void>;
  /** Whether a completion carries evidence whose verification holds here. */
  verifiedEvidence: boolean;
}

/**
 * The contract every provider adapter runs (docs/providers.md, "The contract suite"): through HTTP,
 * start, collect, the status mappings, cancel, its messages in both languages, the evidence round trip,
 * its QR, its readiness, and a login through the OpenID front with its default acr. Call it inside the provider's own describe, after its useE2eApp.
 */
export function providerContract(harness: () => ProviderContractHarness): void {
  const h = () => harness();
  const start = () =>
    h().e2e.http.post(`/api/v1/auth/${h().provider}/start`).set('x-api-key', h().e2e.key).send({ endUserIp: '192.0.2.10' }).expect(200);
  const poll = (id: string) => h().e2e.http.post(`/api/v1/auth/${id}/poll`).set('x-api-key', h().e2e.key).expect(200);
  const collect = async (id: string) => {
    h().e2e.clock.advance(h().collectMs);
    await h().e2e.collect();
    return (await poll(id)).body;
  };
  const profile = () => h().e2e.app.get(EidProviderRegistry).profileOf(h().provider)!;

  describe('provider contract', () => {
    it('starts an app order: pending, its words in Swedish and English, a kiosk link and a launch link', async () => {
      const started = (await start()).body;
      expect(started).toMatchObject({
        provider: h().provider,
        status: 'pending',
        kioskUrl: expect.any(String),
        launchUrl: expect.any(String),
      });
      const pending = (await poll(started.sessionId)).body;
      expect(pending).toMatchObject({ status: 'pending', hintCode: 'outstandingTransaction' });
      expect(pending.userMessage).toEqual(
        userMessageFor(profile().messages, 'pending', 'outstandingTransaction', { launch: 'qr', mobile: false }),
      );
      expect(pending.userMessage.sv).not.toBe('');
      expect(pending.userMessage.en).not.toBe('');
    });

    it('serves its QR as its profile says: animated frames that move with the clock, or one static code', async () => {
      const { sessionId } = (await start()).body;
      const qr = async () => (await h().e2e.http.get(`/api/v1/auth/${sessionId}/qr`).set('x-api-key', h().e2e.key).expect(200)).body;
      const first = await qr();
      h().e2e.clock.advance(1_000);
      const second = await qr();
      if (profile().qr?.kind === 'animated') {
        expect(second.qrTime).toBeGreaterThan(first.qrTime);
        expect(second.qrData).not.toBe(first.qrData);
      } else {
        expect(first).not.toHaveProperty('qrTime');
        expect(second.qrData).toBe(first.qrData);
      }
    });

    it('completes: the user, a result token that verifies, and its evidence kept raw at the evidence route only', async () => {
      const { sessionId } = (await start()).body;
      await h().approve(sessionId);
      const complete = await collect(sessionId);
      expect(complete).toMatchObject({ status: 'complete', user: { name: expect.any(String) } });
      // A Swedish personal number, or another country's identifier with that country (the wallet's PID).
      if (complete.user.nationalId === undefined) expect(complete.user.personalNumber).toMatch(/^\d{12}$/);
      else expect(complete.user).toMatchObject({ nationalId: expect.any(String), country: expect.stringMatching(/^[A-Z]{2}$/) });
      expect(complete).not.toHaveProperty('userMessage');
      const claims = await verifyResultToken(h().e2e.http, complete.resultToken, h().e2e.team.id);
      expect(claims).toMatchObject({ sub: sessionId, provider: h().provider, status: 'complete' });
      if (!h().verifiedEvidence) return;
      expect(complete.evidence.verification.status).toBe('verified');
      const raw = (await h().e2e.http.get(`/api/v1/auth/${sessionId}/evidence`).set('x-api-key', h().e2e.key).expect(200)).body;
      const rawMembers = profile().evidence!.rawMembers.filter((member) => member in raw);
      expect(rawMembers.length).toBeGreaterThan(0);
      for (const member of rawMembers) expect(complete.evidence).not.toHaveProperty(member);
      expect(claims.evidenceSha256).toMatch(/^[0-9a-f]{64}$/);
    });

    it('maps a decline in the app to failed userCancel, with its words', async () => {
      const { sessionId } = (await start()).body;
      await h().decline(sessionId);
      const failed = await collect(sessionId);
      expect(failed).toMatchObject({ status: 'failed', hintCode: 'userCancel' });
      expect(failed.userMessage).toEqual(userMessageFor(profile().messages, 'failed', 'userCancel', { launch: 'qr', mobile: false }));
    });

    it('cancels: failed cancelled, and a second cancel is refused', async () => {
      const { sessionId } = (await start()).body;
      const cancel = () => h().e2e.http.post(`/api/v1/auth/${sessionId}/cancel`).set('x-api-key', h().e2e.key);
      expect((await cancel().expect(200)).body).toMatchObject({ status: 'failed', hintCode: 'cancelled' });
      await cancel().expect(409);
    });

    it('has words for every state in both languages, and an app name', () => {
      const { messages } = profile();
      expect(messages.appName).not.toBe('');
      for (const status of ['pending', 'failed'] as const) {
        for (const hintCode of [...Object.keys(messages[status]), 'somethingNew']) {
          for (const launch of ['qr', 'autostart'] as const) {
            const message = userMessageFor(messages, status, hintCode, { launch, mobile: launch === 'autostart' });
            expect(message).toEqual({ code: expect.any(String), sv: expect.any(String), en: expect.any(String) });
            expect(message!.sv.length * message!.en.length).toBeGreaterThan(0);
          }
        }
      }
    });

    it('logs in through /oidc/auth with its default acr: the id token carries that acr and the amr its face states', async () => {
      const login = await startContractLogin(h().e2e, h().provider);
      const back = await h().approve(login.sessionId);
      // The login page's own browser comes back from the upstream's site (docs/oidc.md, "Same device").
      if (back) await login.returnTo(back);
      const complete = await collect(login.sessionId);
      expect(complete.status).toBe('complete');
      const { idToken } = await login.finish();
      expect(idToken).toMatchObject({ acr: login.acr, auth_time: expect.any(Number) });
      const amr = profile().openId!.amr(complete.evidence);
      if (amr.length) expect(idToken.amr).toEqual(amr);
      else expect(idToken).not.toHaveProperty('amr');
    });

    it('reports its RP certificates at readiness as <name>Certificates, when it has any', async () => {
      const ready = (await h().e2e.http.get('/health/ready').expect(200)).body;
      const statuses = profile().certificateStatuses?.() ?? [];
      if (statuses.length)
        expect(Object.keys(ready.checks[`${h().provider}Certificates`]).sort()).toEqual(statuses.map((s) => s.environment).sort());
      else expect(ready.checks).not.toHaveProperty(`${h().provider}Certificates`);
    });
  });
}
