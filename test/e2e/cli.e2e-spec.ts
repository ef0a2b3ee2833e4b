import { runCli } from '../../src/cli/run-cli.js';
import { withEnv } from '../support/create-test-app.js';
import { useE2eApp } from '../support/e2e.js';

describe('Command line', () => {
  const e2e = useE2eApp();
  const cli = (...argv: string[]) => withEnv({ ...e2e.database.env, LOG_LEVEL: 'silent' }, () => runCli(argv));

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

  it.each([
    [['teams'], /Unknown command/],
    [['teams', 'create'], /--name is required/],
    [['teams', 'create', '--name', 'x', '--plan', 'gold'], /--plan must be one of free, pro, max, enterprise/],
    [['teams', 'create', '--name', 'x', '--subscription-until', 'tomorrow'], /ISO 8601/],
    [['teams', 'create', '--name', 'x', '--colour', 'red'], /Unknown option '--colour'/],
    [['keys', 'create', '--team', 'x', '--scopes', 'sessions:read,admin'], /unknown admin/],
    [['keys', 'create', '--team', 'x', '--per-minute', '0'], /--per-minute must be a whole number/],
    [['users', 'create', '--team', 'x'], /--email or --phone is required/],
    [['users', 'create', '--team', 'x', '--phone', '0701234567'], /E\.164/],
  ])('should refuse %j with exit code 2 and a usage message', async (argv, message) => {
    const result = await cli(...argv);
    expect(result.exitCode).toBe(2);
    expect(result.output).toEqual({ error: { code: 'usage', message: expect.stringMatching(message) } });
  });

  it('should answer a missing team with exit code 1 and not_found', async () => {
    const result = await cli('keys', 'create', '--team', '00000000-0000-4000-8000-000000000000');
    expect(result).toEqual({ exitCode: 1, output: { error: { code: 'not_found', message: expect.any(String) } } });
  });
});
