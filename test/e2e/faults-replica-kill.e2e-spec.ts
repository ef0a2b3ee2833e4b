import { describeFaults, recordFigures, useFaultLab } from '../support/fault-lab.js';
import { pause, webhookLedger } from '../support/session-load.js';
import type { ServiceProcess } from '../support/service-process.js';
import { waitUntil } from '../support/webhooks.js';

// docs/reliability.md, "A replica killed": two replicas share the load; one is SIGKILLed while it is
// settling sessions and sending webhooks (the receiver answers slowly, so attempts are in flight). The
// other takes over its claimed work after the leases: nothing is left pending, no message is lost, and
// no final event reaches the endpoint under two ids.
describeFaults('Faults: a replica SIGKILLed mid-settlement and mid-delivery', () => {
  const lab = useFaultLab();

  it('should let the other replica finish the killed one’s sessions and webhooks, each final event under one id', async () => {
    const { receiver } = lab.current;
    receiver.answerByDefault({ status: 200, delayMs: 400 });
    const alive: ServiceProcess[] = [await lab.current.start(), await lab.current.start()];
    const [victim, survivor] = alive;
    const load = lab.current.load({ baseUrl: () => alive.map((s) => s.baseUrl), requestTimeoutMs: 8_000 });
    await pause(5_000);

    const before = receiver.requests.length;
    await waitUntil(async () => receiver.requests.length > before, 'webhook attempts in flight', 10_000);
    const killedAt = Date.now();
    alive.splice(0, 1);
    await victim.kill('SIGKILL');
    await pause(5_000);
    await load.stop();
    receiver.answerByDefault({ status: 200 });

    const ledger = await waitUntil(
      async () => {
        const now = webhookLedger(load, receiver);
        return now.lost.length === 0 && now;
      },
      'every accepted session to get its final webhook',
      60_000,
    ).catch(() => webhookLedger(load, receiver));
    expect(survivor.exitCode).toBeNull();
    expect(ledger.lost).toEqual([]);
    expect(ledger.duplicated).toEqual([]);

    await recordFigures({
      fault: 'One of two replicas SIGKILLed under load (WEBHOOK_TIMEOUT 2 s: lease 7 s)',
      faultSeconds: 0,
      degradedSeconds: (Math.max(...receiver.requests.map((r) => r.receivedAt)) - killedAt) / 1000,
      requests: load.byStatus(),
      sessions: ledger.sessions,
      sessionsLost: ledger.lost.length,
      webhooksLost: ledger.lost.length,
      webhooksDuplicated: ledger.duplicated.length,
      note: `"no answer" are requests to the killed replica; ${ledger.redelivered} redeliveries under the same id (attempts the killed replica had not recorded)`,
    });
  }, 240_000);
});
