import { runCli } from '../../../src/cli/run-cli.js';
import { withEnv } from '../../support/create-test-app.js';
import { useE2eApp } from '../../support/e2e.js';

describe('Command line: counter links', () => {
  const e2e = useE2eApp({ withKey: true });
  const cli = (...argv: string[]) => withEnv({ ...e2e.database.env, LOG_LEVEL: 'silent' }, () => runCli(argv));

  it('should create a counter link whose URL verifies a card at the counter, list it without its token, and revoke it', async () => {
    const created = await cli('counter-links', 'create', '--team', e2e.team.id, '--label', 'Till 4', '--provider', 'simulator');
    expect(created).toMatchObject({
      exitCode: 0,
      output: { label: 'Till 4', environment: 'test', provider: 'simulator', revokedAt: null },
    });
    const token = new URL(created.output.url as string).hash.replace('#t=', '');
    const card = await e2e.http.post('/simulator/app/idcard').type('form').send({ personalNumber: '199001011239' }).expect(200);
    const qrCode = /data-qr-code="(BANKIDF\.[^"]+)"/.exec(card.text)![1];

    await e2e.http.post('/kiosk/counter/verify').set('authorization', `Counter ${token}`).send({ qrCode }).expect(200);
    const listed = await withEnv({ ...e2e.database.env, LOG_LEVEL: 'silent' }, () =>
      runCli<Record<string, unknown>[]>(['counter-links', 'list', '--team', e2e.team.id]),
    );
    expect(listed.output).toEqual([expect.objectContaining({ id: created.output.id, label: 'Till 4' })]);
    expect(JSON.stringify(listed.output)).not.toContain(token);
    const revoked = await cli('counter-links', 'revoke', '--team', e2e.team.id, '--id', created.output.id as string);
    expect(revoked.output).toMatchObject({ revokedAt: expect.any(String) });
    await e2e.http.post('/kiosk/counter/verify').set('authorization', `Counter ${token}`).send({ qrCode }).expect(401);
  });
});
