import { connect } from 'node:net';
import { describeFaults, recordFigures, useFaultLab } from '../../support/fault-lab.js';
import { finalWebhooksOf, pause } from '../../support/session-load.js';
import { waitUntil } from '../../support/webhooks.js';

// docs/reliability.md, "SIGTERM": the process stops accepting, answers the requests it has, finishes the
// webhook attempts it started, ends the kiosk streams with a retry hint, and exits 0 within SHUTDOWN_TIMEOUT.
describeFaults('Faults: SIGTERM', () => {
  const lab = useFaultLab();

  it('should drain requests, webhook attempts and kiosk streams, then exit 0', async () => {
    const { key, receiver, pgProxy } = lab.current;
    const service = await lab.current.start({ SHUTDOWN_TIMEOUT: '10s' });
    const load = lab.current.load({ baseUrl: service.baseUrl, requestTimeoutMs: 8_000 });
    const post = (path: string, body: unknown) =>
      fetch(`${service.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    // A kiosk screen watching a pending session.
    const kiosk = (await (await post('/api/v1/auth/simulator/start', { endUserIp: '192.0.2.1' })).json()) as {
      sessionId: string;
      kioskUrl: string;
    };
    const token = /#t=(.+)$/.exec(kiosk.kioskUrl)![1];
    const stream = await fetch(`${service.baseUrl}/kiosk/${kiosk.sessionId}/events`, { headers: { authorization: `Kiosk ${token}` } });
    expect(stream.status).toBe(200);
    const streamText = (async () => {
      let text = '';
      const decoder = new TextDecoder();
      for await (const chunk of stream.body!) text += decoder.decode(chunk as Uint8Array);
      return text;
    })();
    await pause(2_000);

    // A webhook attempt in flight (the receiver answers after 1.5 s) and a request in flight (each
    // database round trip held 0.4 s by the proxy) when the signal comes.
    receiver.answerByDefault({ status: 200, delayMs: 1_500 });
    const before = receiver.requests.length;
    const approved = (await (await post('/api/v1/auth/simulator/start', { endUserIp: '192.0.2.1' })).json()) as {
      sessionId: string;
      autoStartToken: string;
    };
    load.started.add(approved.sessionId);
    await post('/api/v1/simulator/scan', { autoStartToken: approved.autoStartToken });
    await waitUntil(async () => receiver.requests.length > before, 'a webhook attempt to start', 30_000);
    pgProxy.delay(200);
    const inFlight = post('/api/v1/auth/simulator/start', { endUserIp: '192.0.2.1' });
    await pause(300);
    const signalledAt = Date.now();
    service.signal('SIGTERM');
    await pause(300);

    // New connections are refused while the old work drains (once the process has handled the signal:
    // on a loaded machine that has taken more than the 300 ms above).
    const connectRefused = () =>
      new Promise<boolean>((resolve) => {
        const socket = connect(Number(new URL(service.baseUrl).port), '127.0.0.1');
        socket.once('connect', () => (socket.destroy(), resolve(false)));
        socket.once('error', () => resolve(true));
      });
    const refused = await waitUntil(connectRefused, 'new connections to be refused', 3_000).catch(() => false);
    const answered = await inFlight;
    const exitCode = await service.waitForExit();
    const exitedAfter = Date.now() - signalledAt;
    pgProxy.delay(0);
    await load.stop();
    const loadStoppedAt = Date.now();

    expect(refused).toBe(true);
    expect(answered.status).toBe(200);
    // 0, not 1: the drain ended before SHUTDOWN_TIMEOUT (at the deadline the process exits 1).
    expect(exitCode).toBe(0);
    // The stream ended with a retry hint after its frames, so the screen reconnects to another replica.
    expect(await streamText).toMatch(/event: frame[\s\S]*retry: \d+\n\n$/);

    // Every attempt the receiver got was recorded: a restarted service sends no final event again
    // under a second id, and whatever the load left pending is delivered once.
    receiver.answerByDefault({ status: 200 });
    const next = await lab.current.start();
    const ledger = await finalWebhooksOf(load, receiver, { since: loadStoppedAt });
    await next.kill('SIGTERM');
    expect(ledger.lost).toEqual([]);
    expect(ledger.duplicated).toEqual([]);
    expect(ledger.redelivered).toBe(0);

    await recordFigures({
      fault: 'SIGTERM under load (SHUTDOWN_TIMEOUT 10 s)',
      faultSeconds: 0,
      degradedSeconds: exitedAfter / 1000,
      requests: load.byStatus(),
      sessions: ledger.sessions,
      sessionsLost: ledger.lost.length,
      webhooksLost: ledger.lost.length,
      webhooksDuplicated: ledger.duplicated.length,
      note: `exited 0 ${(exitedAfter / 1000).toFixed(1)} s after the signal; ${ledger.redelivered} redeliveries; every final webhook in ${ledger.drainedSeconds.toFixed(0)} s after the load stopped`,
    });
  }, 540_000);
});
