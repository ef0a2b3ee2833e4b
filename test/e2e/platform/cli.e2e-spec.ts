import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { runCli } from '../../../src/cli/run-cli.js';
import { withEnv } from '../../support/create-test-app.js';
import { useE2eApp } from '../../support/e2e.js';
import { buildService } from '../../support/service-process.js';

const run = promisify(execFile);

describe('Command line', () => {
  const e2e = useE2eApp();
  const cli = (...argv: string[]) => withEnv({ ...e2e.database.env, LOG_LEVEL: 'silent' }, () => runCli(argv));
  const cliList = (...argv: string[]) =>
    withEnv({ ...e2e.database.env, LOG_LEVEL: 'silent' }, () => runCli<Record<string, unknown>[]>(argv));

  it('should create a team, a user and a key whose secret works on the API, then block and revoke it', async () => {
    const team = await cli(
      'teams',
      'create',
      '--name',
      'Acme AB',
      '--plan',
      'pro',
      '--features',
      'beta',
      '--subscription-until',
      '2099-01-01T00:00:00Z',
    );
    expect(team).toEqual({
      exitCode: 0,
      output: expect.objectContaining({
        name: 'Acme AB',
        plan: 'pro',
        features: ['pro', 'beta'],
        subscription: { active: true, endsAt: new Date('2099-01-01T00:00:00Z') },
      }),
    });
    const teamId = team.output.id as string;

    const user = await cli('users', 'create', '--team', teamId, '--email', 'Ada@Example.com');
    expect(user.output).toMatchObject({ teamId, email: 'ada@example.com', phone: null });

    const created = await cli(
      'keys',
      'create',
      '--team',
      teamId,
      '--env',
      'test',
      '--scopes',
      'sessions:read,sessions:write',
      '--per-minute',
      '60',
    );
    expect(created.exitCode).toBe(0);
    expect(created.output).toMatchObject({ teamId, environment: 'test', scopes: ['sessions:read', 'sessions:write'], perMinuteLimit: 60 });
    const key = created.output.key as string;
    expect(key).toMatch(/^eidk_test_/);
    expect(created.output.displayPrefix).toBe(key.slice(0, 14));
    expect(JSON.stringify(created.output)).not.toContain('keyHash');

    const start = () => e2e.http.post('/api/v1/auth/simulator/start').set('x-api-key', key).send({ endUserIp: '192.0.2.1' });
    await start().expect(200);

    const blocked = await cli('keys', 'block', '--id', created.output.id as string, '--until', '2099-01-01T00:00:00Z');
    expect(blocked.output.blockedUntil).toEqual(new Date('2099-01-01T00:00:00Z'));
    // The service caches authenticated keys for 5 s; a change made by another process shows after that.
    e2e.clock.advance(5_000);
    expect((await start().expect(403)).body.code).toBe('api_key_blocked');

    const revoked = await cli('keys', 'revoke', '--id', created.output.id as string);
    expect(revoked.output.revokedAt).toBeInstanceOf(Date);
    expect(JSON.stringify(revoked.output)).not.toContain(key);
    e2e.clock.advance(5_000);
    expect((await start().expect(401)).body.code).toBe('invalid_api_key');

    // Each change is in the team's audit log as the operator's (docs/audit.md), without the secret.
    const audit: { action: string; actor_type: string; actor_label: string; client_address: string | null; target_id: string }[] =
      await e2e.app
        .get(DataSource)
        .query(
          `SELECT action, actor_type, actor_label, client_address, target_id FROM audit_events WHERE team_id = $1 ORDER BY occurred_at, action`,
          [teamId],
        );
    expect(audit.map((entry) => entry.action).sort()).toEqual([
      'api_key.blocked',
      'api_key.created',
      'api_key.revoked',
      'member.added',
      'team.created',
    ]);
    expect(audit.find((entry) => entry.action === 'team.created')?.target_id).toBe(teamId);
    for (const entry of audit) expect(entry).toMatchObject({ actor_type: 'operator', actor_label: 'operator', client_address: null });
    expect(JSON.stringify(audit)).not.toContain(key);
  });

  it('should make keys of a team without --subscription-until answer subscription_required', async () => {
    const team = await cli('teams', 'create', '--name', 'No Sub');
    const { output } = await cli('keys', 'create', '--team', team.output.id as string);
    const res = await e2e.http
      .post('/api/v1/auth/simulator/start')
      .set('x-api-key', output.key as string)
      .send({ endUserIp: '192.0.2.1' });
    expect(res.body.code).toBe('subscription_required');
  });

  it('should report that migrations are up to date', async () => {
    expect(await cli('migrate')).toEqual({ exitCode: 0, output: { applied: [] } });
  });

  it("should list teams, show one, and list a team's users and keys without any secret", async () => {
    const team = await cli('teams', 'create', '--name', 'Listed AB', '--subscription-until', '2099-01-01T00:00:00Z');
    const teamId = team.output.id as string;
    const user = await cli('users', 'create', '--team', teamId, '--phone', '+46701234567');
    const first = await cli('keys', 'create', '--team', teamId, '--name', 'first');
    const second = await cli('keys', 'create', '--team', teamId, '--name', 'second', '--env', 'live');
    await cli('keys', 'revoke', '--id', first.output.id as string);

    const teams = await cliList('teams', 'list');
    expect(teams.exitCode).toBe(0);
    expect(teams.output).toContainEqual(expect.objectContaining({ id: teamId, name: 'Listed AB' }));
    expect((await cli('teams', 'show', '--id', teamId)).output).toEqual(team.output);

    expect((await cliList('users', 'list', '--team', teamId)).output).toEqual([user.output]);

    const keys = await cliList('keys', 'list', '--team', teamId);
    expect(keys.output.map((key) => [key.name, key.environment, key.revokedAt === null])).toEqual(
      expect.arrayContaining([
        ['first', 'test', false],
        ['second', 'live', true],
      ]),
    );
    expect(keys.output).toHaveLength(2);
    const listed = JSON.stringify(keys.output);
    for (const secret of [first.output.key, second.output.key] as string[]) expect(listed).not.toContain(secret);
    expect(listed).not.toMatch(/keyHash/);
  });

  it('should answer an unknown team on the list and show commands with exit code 1 and not_found', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const argv of [
      ['teams', 'show', '--id', missing],
      ['keys', 'list', '--team', missing],
      ['users', 'list', '--team', missing],
    ]) {
      expect(await cli(...argv)).toEqual({ exitCode: 1, output: { error: { code: 'not_found', message: expect.any(String) } } });
    }
  });

  it.each([[['--help']], [['teams', '--help']], [['keys', 'create', '--help']], [['help', 'users']], [['users', 'list', '-h']]])(
    'should print usage for %j and exit 0',
    async (argv) => {
      expect(await cli(...argv)).toEqual({ exitCode: 0, output: undefined, help: expect.stringMatching(/^Usage: eid-gateway/) });
    },
  );

  const UUID = '00000000-0000-4000-8000-000000000000';
  it.each([
    [[], /a command is required/],
    [['teams'], /a command is required/],
    [['teams', 'rename'], /unknown command 'rename'/],
    [['teams', 'create'], /required option '--name <name>' not specified/],
    [['teams', 'create', '--name', 'x', '--plan', 'gold'], /Allowed choices are free, pro, max, enterprise/],
    [['teams', 'create', '--name', 'x', '--subscription-until', 'tomorrow'], /ISO 8601/],
    [['teams', 'create', '--name', 'x', '--colour', 'red'], /unknown option '--colour'/],
    [['teams', 'show', '--id', 'x'], /must be a UUID/],
    [['keys', 'create', '--team', UUID, '--scopes', 'sessions:read,admin'], /unknown admin/],
    [['keys', 'create', '--team', UUID, '--per-minute', '0'], /--per-minute <n>' argument '0' is invalid. must be a whole number/],
    [['keys', 'list'], /required option '--team <id>'/],
    [['users', 'create', '--team', UUID], /--email or --phone is required/],
    [['users', 'create', '--team', UUID, '--phone', '0701234567'], /E\.164/],
  ])('should refuse %j with exit code 2, a usage message and the usage', async (argv, message) => {
    const result = await cli(...argv);
    expect(result).toEqual({
      exitCode: 2,
      output: { error: { code: 'usage', message: expect.stringMatching(message) } },
      help: expect.stringMatching(/^Usage: eid-gateway /),
    });
  });

  it('should answer a missing team with exit code 1 and not_found', async () => {
    const result = await cli('keys', 'create', '--team', '00000000-0000-4000-8000-000000000000');
    expect(result).toEqual({ exitCode: 1, output: { error: { code: 'not_found', message: expect.any(String) } } });
  });

  describe('as its own process', () => {
    let service: Awaited<ReturnType<typeof buildService>>;
    const bin = (cli: string, ...argv: string[]) =>
      run(process.execPath, [cli, ...argv], { env: { PATH: process.env.PATH ?? '', ...e2e.database.env, LOG_LEVEL: 'silent' } }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
      );

    beforeAll(async () => {
      service = await buildService();
    });
    afterAll(() => service?.remove());

    it('should print one JSON array on stdout for a list', async () => {
      const { code, stdout } = await bin(service.cli, 'teams', 'list');
      expect(code).toBe(0);
      expect(Array.isArray(JSON.parse(stdout))).toBe(true);
    });

    it('should print usage on stdout for --help and exit 0', async () => {
      expect(await bin(service.cli, 'keys', '--help')).toEqual({
        code: 0,
        stdout: expect.stringMatching(/^Usage: eid-gateway keys .*create.*list.*block.*revoke/s),
        stderr: '',
      });
    });

    it('should put the error as JSON and then the usage on stderr, nothing on stdout, for an unknown flag', async () => {
      const { code, stdout, stderr } = await bin(service.cli, 'teams', 'list', '--all');
      expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
      const [json, usage] = stderr.split(/\n(?=Usage:)/);
      expect(JSON.parse(json)).toEqual({ error: { code: 'usage', message: "unknown option '--all'" } });
      expect(usage).toMatch(/^Usage: eid-gateway teams list/);
    });

    it('should tell to build first when the bin finds no build', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'eidgw-bin-'));
      try {
        await mkdir(join(dir, 'bin'));
        await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
        await copyFile('bin/eid-gateway.js', join(dir, 'bin', 'eid-gateway.js'));
        const { code, stdout, stderr } = await bin(join(dir, 'bin', 'eid-gateway.js'), '--help');
        expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
        expect(stderr).toMatch(/run `npm run build` first/);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});
