import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { TokensService } from '../../../src/tokens/tokens.service.js';
import { UsersService } from '../../../src/users/users.service.js';
import { useE2eApp } from '../../support/e2e.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { freePort } from '../../support/service-process.js';

// docs/clients.md: the Python client's own unittest suite (clients/python/tests), run against this running
// service. Skipped, saying so, only where the machine has no python3.
const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const havePython = python.status === 0;
if (!havePython) console.warn('[clients] python3 not found: the Python client tests are skipped');

/** Runs a command without blocking this process's event loop (the service under test answers from it). */
function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

(havePython ? describe : describe.skip)('The Python client (clients/python) against the running service', () => {
  let port: number;
  beforeAll(async () => {
    port = await freePort();
  });
  const e2e = useE2eApp({
    env: () => ({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }),
    listen: true,
    listenPort: () => port,
    bootTimeout: 120_000,
  });

  it('should pass python3 -m unittest in clients/python', async () => {
    const { team, key } = await createTeamWithKey(e2e.app, { plan: 'pro' });
    const user = await e2e.app.get(UsersService).create({ teamId: team.id, email: `python-${randomUUID()}@example.com` });
    const { token } = await e2e.app.get(TokensService).issue({ userId: user.id, teamId: team.id, clientId: 'test' });

    // A key at its per-minute limit for about 8 more seconds (the sliding window is 61 one-second buckets):
    // the suite's first test against the service sees a 429 and waits it out.
    const limited = await createTeamWithKey(e2e.app, { plan: 'pro', key: { perMinuteLimit: 1 } });
    await e2e.http.post(`/api/v1/auth/${randomUUID()}/poll`).set('x-api-key', limited.key).expect(404);
    e2e.clock.advance(53_000);

    const { code, output } = await run('python3', ['-m', 'unittest', '-v'], {
      cwd: 'clients/python',
      env: {
        PATH: process.env.PATH,
        PYTHONDONTWRITEBYTECODE: '1',
        EIDGW_BASE_URL: e2e.baseUrl,
        EIDGW_API_KEY: key,
        EIDGW_ACCESS_TOKEN: token,
        EIDGW_LIMITED_API_KEY: limited.key,
      },
    });
    if (code !== 0) throw new Error(`python3 -m unittest failed (exit ${code}):\n${output}`);
    expect(output).toMatch(/^OK$/m);
    expect(output).not.toMatch(/skipped '/); // every test ran against the service
  }, 120_000);
});
