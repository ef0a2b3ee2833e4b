import pg from 'pg';
import { describeFaults, recordFigures, useFaultLab } from '../../support/fault-lab.js';
import { finalWebhooksOf, pause } from '../../support/session-load.js';
import type { ServiceProcess } from '../../support/service-process.js';
import { TcpProxy } from '../../support/tcp-proxy.js';
import { waitUntil } from '../../support/webhooks.js';

// docs/reliability.md, "A replica killed": two replicas share the load; one is SIGKILLed in the middle
// of settling sessions (its transaction has written sessions' ends, not yet committed them with their
// webhook messages) while webhook attempts are in flight (the receiver answers slowly). The other
// takes over after the leases: nothing is left pending, no message is lost, and no final event
// reaches the endpoint under two ids.
describeFaults('Faults: a replica SIGKILLed mid-settlement and mid-delivery', () => {
  const lab = useFaultLab();
  let victimProxy: TcpProxy | undefined;
  let database: pg.Client | undefined;
  afterAll(async () => {
    await victimProxy?.close();
    await database?.end();
  });

  it('should let the other replica finish the killed one’s sessions and webhooks, each final event under one id', async () => {
    const { receiver, pgProxy } = lab.current;
    database = new pg.Client({ connectionString: lab.current.databaseUrl });
    // The test database is dropped after the file, with this client possibly still open.
    database.on('error', () => undefined);
    await database.connect();
    // The victim reaches PostgreSQL through a proxy of its own, which the test slows down so that a
    // settlement takes seconds, and names itself, so that its transactions can be seen.
    victimProxy = await TcpProxy.start({ host: '127.0.0.1', port: pgProxy.port });
    const victimUrl = new URL(victimProxy.rewrite(lab.current.env().DATABASE_URL));
    victimUrl.searchParams.set('application_name', 'eidgw-victim');
    receiver.answerByDefault({ status: 200, delayMs: 400 });
    const alive: ServiceProcess[] = await Promise.all([lab.current.start({ DATABASE_URL: victimUrl.toString() }), lab.current.start()]);
    const [victim, survivor] = alive;
    const load = lab.current.load({ baseUrl: () => alive.map((s) => s.baseUrl), requestTimeoutMs: 8_000 });
    await pause(5_000);

    // Slow enough to be seen inside a settlement, quick enough to reach it before the survivor takes
    // the session over (a claim lasts one collect interval, 2 s).
    victimProxy.delay(150);
    const midSettlement = await waitUntil(
      async () => {
        const { rows } = await database!.query<{ n: number }>(
          `SELECT count(*)::integer AS n FROM pg_stat_activity
            WHERE application_name = 'eidgw-victim' AND state IN ('active', 'idle in transaction')
              AND xact_start IS NOT NULL AND query LIKE 'UPDATE sessions s SET status%'`,
        );
        return rows[0].n > 0 && rows[0].n;
      },
      'the victim to be inside a settlement transaction',
      60_000,
    ).catch(async (error: Error) => {
      const { rows } = await database!.query(
        `SELECT application_name, state, left(query, 40) AS query FROM pg_stat_activity WHERE datname = current_database()`,
      );
      throw new Error(`${error.message}: ${JSON.stringify(rows)}`);
    });
    const inFlight = receiver.requests.length;
    const killedAt = Date.now();
    alive.splice(0, 1);
    await victim.kill('SIGKILL');
    await pause(5_000);
    await load.stop();
    const loadStoppedAt = Date.now();
    receiver.answerByDefault({ status: 200 });

    const ledger = await finalWebhooksOf(load, receiver, { since: loadStoppedAt });
    const { rows } = await database.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM sessions WHERE status = 'pending' AND expires_at < now()`,
    );
    expect(midSettlement).toBeGreaterThan(0);
    expect(inFlight).toBeGreaterThan(0);
    expect(survivor.exitCode).toBeNull();
    expect(rows[0].n).toBe(0);
    expect(ledger.lost).toEqual([]);
    expect(ledger.duplicated).toEqual([]);

    await recordFigures({
      fault: 'One of two replicas SIGKILLed mid-settlement and mid-delivery (WEBHOOK_TIMEOUT 2 s: lease 7 s)',
      faultSeconds: 0,
      degradedSeconds: (Math.max(...receiver.requests.map((r) => r.receivedAt)) - killedAt) / 1000,
      requests: load.byStatus(),
      sessions: ledger.sessions,
      sessionsLost: ledger.lost.length,
      webhooksLost: ledger.lost.length,
      webhooksDuplicated: ledger.duplicated.length,
      note: `killed inside a settlement transaction (rolled back: its sessions were settled again by the survivor); "no answer" are requests to the killed replica; ${ledger.redelivered} redeliveries under the same id (attempts the killed replica had not recorded); every final webhook in ${ledger.drainedSeconds.toFixed(0)} s after the load stopped`,
    });
  }, 540_000);
});
