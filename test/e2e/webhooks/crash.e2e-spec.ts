import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { runCli } from '../../../src/cli/run-cli.js';
import { ENTITIES } from '../../../src/app.entities.js';
import { createDataSource } from '../../../src/database/data-source.js';
import { TEST_ENCRYPTION_KEY, withEnv } from '../../support/create-test-app.js';
import { useTestDatabase } from '../../support/e2e.js';
import { buildService, ServiceProcess } from '../../support/service-process.js';
import { usingRealPostgres } from '../../support/test-postgres.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { waitUntil } from '../../support/webhooks.js';

// The outbox rests on PostgreSQL's durability. On the embedded PGlite (development only) this test
// passes too, but each process boots in 10-20 s on a loaded machine, so the fallback run skips it.
const describeOnPostgres = usingRealPostgres() ? describe : describe.skip;

describeOnPostgres('Webhooks: the service process stops between the end of a session and its delivery', () => {
  let receiver: WebhookReceiver;
  let build: Awaited<ReturnType<typeof buildService>>;
  let service: ServiceProcess | undefined;
  let key: string;
  let secret: string;

  // Built service processes, so a database only (useTestDatabase), and the last process stops before it
  // is dropped: afterAll hooks run in the order they are declared.
  afterAll(async () => {
    await service?.kill();
    await receiver?.close();
    await build?.remove();
  });
  const database = useTestDatabase();

  // The attempt's deadline (1 s) plus the lease margin bounds how long a restarted service waits.
  const env = () => ({
    ...database.current.env,
    DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_TIMEOUT: '1s',
  });
  const cli = async (...argv: string[]) => {
    const { exitCode, output } = await withEnv({ ...env(), LOG_LEVEL: 'silent' }, () => runCli(argv));
    if (exitCode !== 0) throw new Error(`cli ${argv.join(' ')}: ${JSON.stringify(output)}`);
    return output as Record<string, string>;
  };
  /** Opens the database beside (or, between runs, instead of) the service. */
  const withDatabase = async <T>(
    work: (query: (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>) => Promise<T>,
  ): Promise<T> => {
    const dataSource = await createDataSource({
      entities: ENTITIES,
      url: database.current.env.DATABASE_URL,
      dataDir: database.current.env.DATA_DIR ?? '',
      joinRunningEmbedded: true,
      poolSize: 1,
    });
    try {
      return await work((sql, params) => dataSource.query(sql, params));
    } finally {
      await dataSource.destroy();
    }
  };
  /** Starts a session on the running service and approves it; nobody polls: the background collector ends it. */
  const approvedSession = async (): Promise<string> => {
    const http = request(service!.baseUrl);
    const started = await http.post('/api/v1/auth/simulator/start').set('x-api-key', key).send({ endUserIp: '192.0.2.1' }).expect(200);
    await http.post('/api/v1/simulator/scan').send({ autoStartToken: started.body.autoStartToken }).expect(200);
    return started.body.sessionId;
  };

  beforeAll(async () => {
    [receiver, build] = await Promise.all([WebhookReceiver.start(), buildService()]);
    const team = await cli('teams', 'create', '--name', 'Crash AB', '--plan', 'pro', '--subscription-until', '2099-01-01T00:00:00Z');
    key = (await cli('keys', 'create', '--team', team.id)).key;
    secret = (await cli('webhooks', 'create', '--team', team.id, '--url', receiver.url())).secret;
  }, 60_000);

  it('should deliver the webhook after a SIGKILL mid-delivery and a restart, under the one message id it had', async () => {
    // The first attempt reaches the receiver, which holds it open: the process dies mid-delivery.
    receiver.answerNext({ hang: true });
    service = await ServiceProcess.start(build.main, env());
    const sessionId = await approvedSession();
    await receiver.waitForRequests(1, 20_000);
    await service.kill('SIGKILL');
    service = undefined;

    await withDatabase(async (query) => {
      expect(await query(`SELECT status FROM sessions WHERE id = $1`, [sessionId])).toEqual([{ status: 'complete' }]);
      expect(
        await query(`SELECT status, attempt_count FROM webhook_deliveries WHERE session_id = $1 AND lease_expires_at IS NOT NULL`, [
          sessionId,
        ]),
      ).toEqual([{ status: 'pending', attempt_count: 1 }]);
    });

    service = await ServiceProcess.start(build.main, env());
    const [first, second] = await receiver.waitForRequests(2, 30_000);
    const delivered = await withDatabase((query) =>
      waitUntil(async () => {
        const rows = await query(`SELECT status, attempt_count, message_id FROM webhook_deliveries WHERE session_id = $1`, [sessionId]);
        return rows.length === 1 && rows[0].status === 'delivered' ? rows[0] : undefined;
      }, 'the delivery to be recorded'),
    );

    expect(new Set(receiver.messageIds())).toEqual(new Set([delivered.message_id]));
    expect(delivered.attempt_count).toBe(2);
    expect(first.body).toBe(second.body);
    expect(new Webhook(secret).verify(second.body, second.headers as Record<string, string>)).toMatchObject({
      type: 'auth.session.completed',
      data: { sessionId, status: 'complete', evidence: { verification: { status: 'verified' } }, resultToken: expect.any(String) },
    });
  }, 120_000);

  it('should finish and record an attempt in flight when stopped gracefully (SIGTERM)', async () => {
    service ??= await ServiceProcess.start(build.main, env());
    receiver.answerNext({ status: 200, delayMs: 600 });
    const before = receiver.requests.length;
    const sessionId = await approvedSession();
    await receiver.waitForRequests(before + 1, 20_000);
    await service.kill('SIGTERM');
    service = undefined;

    const rows = await withDatabase((query) =>
      query(`SELECT status, attempt_count FROM webhook_deliveries WHERE session_id = $1`, [sessionId]),
    );
    expect(rows).toEqual([{ status: 'delivered', attempt_count: 1 }]);
  }, 60_000);
});
