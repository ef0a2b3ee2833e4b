import { jest } from '@jest/globals';
import type { ApiKeyPrincipal } from '../../src/auth/principal.js';
import { DataCipher } from '../../src/common/crypto/data-cipher.js';
import { ApiKeysModule } from '../../src/api-keys/api-keys.module.js';
import { SimulatorProvider } from '../../src/eid-providers/simulator/simulator.provider.js';
import { KioskTokenModule } from '../../src/kiosk-tokens/kiosk-token.module.js';
import { SessionSettlement } from '../../src/sessions/settlement/session-settlement.js';
import { SessionStore } from '../../src/sessions/session.store.js';
import { SessionsModule } from '../../src/sessions/sessions.module.js';
import { SessionsService } from '../../src/sessions/api/sessions.service.js';
import { createTestDatabase, type TestDatabase } from '../support/create-test-app.js';
import { createTeamWithKey } from '../support/fixtures.js';
import { createServiceContext, type ServiceContext } from '../support/service-context.js';

const USER = { personalNumber: '198507099805', name: 'Anna Andersson', givenName: 'Anna', surname: 'Andersson' };

/** A poll answers from the stored state while the background collector keeps up (docs/performance.md, "Poll"). */
describe('Poll', () => {
  let database: TestDatabase;
  let context: ServiceContext;

  beforeAll(async () => {
    database = await createTestDatabase();
    context = await createServiceContext(database.env, [SessionsModule, ApiKeysModule, KioskTokenModule]);
  });

  afterAll(async () => {
    await context?.close();
    await database?.drop();
  });

  afterEach(() => jest.restoreAllMocks());

  const get = <T>(type: new (...args: never[]) => T) => context.module.get(type, { strict: false });

  /** A session the end user has approved in the app, not yet collected, with spies on the provider and the cipher. */
  async function approvedSession() {
    context.clock.freeze();
    const { team, apiKey } = await createTeamWithKey(context.module);
    const principal = { kind: 'apiKey', apiKey, team } as ApiKeyPrincipal;
    const started = await get(SessionsService).start(principal, 'simulator', { endUserIp: '192.0.2.1' });
    await get(SimulatorProvider).scan({ autoStartToken: started.autoStartToken, action: 'approve', user: USER });
    const simulator = get(SimulatorProvider);
    const cipher = get(DataCipher);
    const spies = {
      collect: jest.spyOn(simulator, 'collect'),
      collectMany: jest.spyOn(simulator, 'collectMany'),
      claim: jest.spyOn(get(SessionStore), 'claimForCollect'),
      decrypt: jest.spyOn(cipher, 'decrypt'),
      decryptJson: jest.spyOn(cipher, 'decryptJson'),
    };
    return { principal, sessionId: started.sessionId, spies, poll: () => get(SessionsService).poll(principal, started.sessionId) };
  }

  it('should answer a pending poll from the row, without a claim, a provider call or a decryption, while the collector is on time', async () => {
    const { poll, spies } = await approvedSession();
    // One interval and a half since the order: the collector's next tick is due, a poll does not collect.
    context.clock.advance(3_000);

    expect(await poll()).toMatchObject({ status: 'pending', hintCode: 'outstandingTransaction' });

    expect(spies.claim).not.toHaveBeenCalled();
    expect(spies.collect).not.toHaveBeenCalled();
    expect(spies.decrypt).not.toHaveBeenCalled();
    expect(spies.decryptJson).not.toHaveBeenCalled();
  });

  it('should show what the background collector found, without collecting again', async () => {
    const { poll, spies } = await approvedSession();
    context.clock.advance(2_000);
    await get(SessionSettlement).collectDue();
    expect(spies.collectMany).toHaveBeenCalledTimes(1);

    expect(await poll()).toMatchObject({ status: 'complete', user: USER });
    expect(spies.claim).not.toHaveBeenCalled();
    expect(spies.collect).not.toHaveBeenCalled();
  });

  it('should collect in the poll when the collector is two intervals behind', async () => {
    const { poll, spies } = await approvedSession();
    context.clock.advance(3_499);
    expect(await poll()).toMatchObject({ status: 'pending' });
    expect(spies.collect).not.toHaveBeenCalled();

    context.clock.advance(1);
    expect(await poll()).toMatchObject({ status: 'complete', user: USER });
    expect(spies.claim).toHaveBeenCalledTimes(1);
    expect(spies.collect).toHaveBeenCalledTimes(1);
  });
});
