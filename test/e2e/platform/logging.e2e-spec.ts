import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { runCli } from '../../../src/cli/run-cli.js';
import { TEST_ENCRYPTION_KEY, withEnv } from '../../support/create-test-app.js';
import { useTestDatabase } from '../../support/e2e.js';
import { buildService, ServiceProcess } from '../../support/service-process.js';
import { waitUntil } from '../../support/webhooks.js';

/** The service's stdout as a real process writes it: one JSON object per line. */
describe('Logs: one JSON line per request, with its id and no credential', () => {
  let build: Awaited<ReturnType<typeof buildService>>;
  let service: ServiceProcess;
  let key: string;

  // A built service in a child process, so a database only (useTestDatabase), and the service stops
  // before it is dropped: afterAll hooks run in the order they are declared.
  afterAll(async () => {
    await service?.kill();
    await build?.remove();
  });
  const database = useTestDatabase();

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- log lines are arbitrary JSON, read field by field
  const lines = (): Record<string, any>[] =>
    service.log
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
  const requestLine = (id: string) => waitUntil(async () => lines().find((line) => line.req?.id === id), `the log line of request ${id}`);

  beforeAll(async () => {
    build = await buildService();
    const env = { ...database.current.env, DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY };
    const cli = async (...argv: string[]) =>
      (await withEnv({ ...env, LOG_LEVEL: 'silent' }, () => runCli(argv))).output as Record<string, string>;
    const team = await cli('teams', 'create', '--name', 'Logs AB', '--plan', 'pro', '--subscription-until', '2099-01-01T00:00:00Z');
    key = (await cli('keys', 'create', '--team', team.id)).key;
    service = await ServiceProcess.start(build.main, { ...env, LOG_LEVEL: 'info' });
  }, 60_000);

  it('should log a served request at info under the caller-supplied request id, and echo the id', async () => {
    const res = await request(service.baseUrl).get('/health/live').set('x-request-id', 'trace-42').expect(200);
    expect(res.headers['x-request-id']).toBe('trace-42');
    expect(await requestLine('trace-42')).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/health/live', remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
  });

  it('should log a refused request at warn with the key in the URL redacted and never written anywhere', async () => {
    const wrongKey = `eidk_test_${'Z'.repeat(38)}`;
    const id = randomUUID();
    await request(service.baseUrl).post(`/api/v1/auth/${randomUUID()}/poll?key=${wrongKey}`).set('x-request-id', id).expect(401);
    await request(service.baseUrl).post(`/api/v1/auth/${randomUUID()}/poll`).set('x-api-key', key).expect(404);
    const line = await requestLine(id);
    expect(line).toMatchObject({ level: 40, res: { statusCode: 401 } });
    expect(line.req.url).toMatch(/\?key=\[redacted\]$/);
    expect(service.log).not.toContain(wrongKey);
    expect(service.log).not.toContain(key);
  });

  it("should write Nest's own lines through the same logger, with their context", () => {
    expect(lines()).toContainEqual(
      expect.objectContaining({ level: 30, context: 'Bootstrap', msg: expect.stringMatching(/^eid-gateway listening on port/) }),
    );
  });

  it('should still write every line logged before an uncaught exception ends the process', async () => {
    // Lines leave asynchronously (docs/operations.md, "Logs"): what is still buffered when the process dies must be flushed.
    const logger = join(dirname(build.cli), 'common', 'logging', 'root-logger.js');
    const script = `import(${JSON.stringify(logger)}).then(({ createRootLogger }) => {
      const log = createRootLogger('info');
      for (let i = 0; i < 5000; i++) log.info({ i }, 'burst');
      throw new Error('crash');
    });`;
    const crashed = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { maxBuffer: 64 << 20 }).catch(
      (error: { code: number; stdout: string }) => error,
    );
    expect('code' in crashed && crashed.code).toBe(1);
    const burst = crashed.stdout.split('\n').filter((line) => line.includes('"burst"'));
    expect(burst).toHaveLength(5000);
    expect(JSON.parse(burst[4999])).toMatchObject({ i: 4999 });
  });
});
