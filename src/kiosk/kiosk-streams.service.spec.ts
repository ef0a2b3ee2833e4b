import { TestClock } from '../../test/support/test-clock.js';
import { Draining } from '../common/shutdown/draining.js';
import type { SessionScreenReader, SessionScreenState } from '../sessions/session-screen-reader.js';
import { KioskStreamsService, MAX_OPEN_STREAMS, MAX_VIEWERS_PER_SESSION } from './kiosk-streams.service.js';

const STREAMS_PER_ADDRESS = 30;

// A finished session: attaching sends its status and closes, so no timers are left behind.
const finished = (id: string): SessionScreenState => ({
  id,
  provider: 'simulator',
  status: 'complete',
  hintCode: null,
  orderTime: new Date(0),
  renewals: 0,
});
const reader = { forScreen: (id: string) => Promise.resolve(finished(id)) } as unknown as SessionScreenReader;

describe(KioskStreamsService.name, () => {
  it(`should refuse a screen past ${MAX_VIEWERS_PER_SESSION} on one session`, async () => {
    const streams = new KioskStreamsService(reader, new TestClock(), new Draining(), { streamsPerAddress: STREAMS_PER_ADDRESS });
    for (let i = 0; i < MAX_VIEWERS_PER_SESSION; i++) await streams.prepare('s-1', `192.0.2.${i}`);
    await expect(streams.prepare('s-1', '192.0.2.200')).rejects.toMatchObject({ code: 'rate_limit_exceeded' });
  });

  it(`should refuse a screen past ${MAX_OPEN_STREAMS} open on the process, every session together, and admit again once one closes`, async () => {
    const streams = new KioskStreamsService(reader, new TestClock(), new Draining(), { streamsPerAddress: STREAMS_PER_ADDRESS });
    const prepared: SessionScreenState[] = [];
    for (let i = 0; i < MAX_OPEN_STREAMS; i++) prepared.push(await streams.prepare(`s-${i % 200}`, `10.0.${i % 100}.1`));
    expect(streams.openStreams()).toBe(MAX_OPEN_STREAMS);
    await expect(streams.prepare('another', '192.0.2.1')).rejects.toMatchObject({
      code: 'rate_limit_exceeded',
      detail: 'Too many kiosk screens are open on this server.',
    });
    // The session turned out finished: the screen gets its status, the stream closes and frees its place.
    streams.attach(prepared[0], { send: () => undefined, close: () => undefined });
    await expect(streams.prepare('another', '192.0.2.1')).resolves.toMatchObject({ id: 'another' });
    streams.onModuleDestroy();
  });

  it(`should refuse a screen past ${STREAMS_PER_ADDRESS} from one address, on any sessions, and admit again once one closes`, async () => {
    const streams = new KioskStreamsService(reader, new TestClock(), new Draining(), { streamsPerAddress: STREAMS_PER_ADDRESS });
    for (let i = 0; i < STREAMS_PER_ADDRESS; i++) await streams.prepare(`s-${i}`, '198.51.100.7');
    await expect(streams.prepare('one-more', '198.51.100.7')).rejects.toMatchObject({
      code: 'rate_limit_exceeded',
      detail: 'Too many screens from this address.',
    });
    // Another address is not held back by this one.
    await expect(streams.prepare('one-more', '198.51.100.8')).resolves.toMatchObject({ id: 'one-more' });
    streams.release('198.51.100.7');
    await expect(streams.prepare('one-more', '198.51.100.7')).resolves.toMatchObject({ id: 'one-more' });
  });
});
