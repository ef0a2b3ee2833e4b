import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FactoryProvider } from '@nestjs/common';
import type { KioskConfig } from '../config/kiosk.config.js';
import type { KioskTokenSigner } from './kiosk-token.js';
import { kioskTokenSignerProvider } from './kiosk-token.provider.js';

const make = (config: Partial<KioskConfig>) =>
  (kioskTokenSignerProvider as FactoryProvider<Promise<KioskTokenSigner>>).useFactory({
    frameAncestors: ["'none'"],
    ...config,
  }) as Promise<KioskTokenSigner>;

describe('kioskTokenSignerProvider', () => {
  const session = '6f1c2a9e-3b7d-4c58-9e21-0a4b5c6d7e8f';
  const until = new Date(Date.now() + 60_000);
  let dataDir: string;

  beforeEach(async () => (dataDir = await mkdtemp(join(tmpdir(), 'kiosk-secret-'))));
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('should generate one secret into DATA_DIR, private to its owner, even for processes starting together', async () => {
    const [a, b] = await Promise.all([make({ dataDir }), make({ dataDir })]);
    const later = await make({ dataDir });
    const token = a.issue(session, until);
    expect(b.check(token, session, new Date())).toBe('valid');
    expect(later.check(token, session, new Date())).toBe('valid');
    expect((await stat(join(dataDir, 'kiosk-token.key'))).mode & 0o777).toBe(0o600);
  });

  it('should use KIOSK_TOKEN_SECRET when given, and write nothing', async () => {
    const secret = randomBytes(32).toString('base64');
    const [a, b] = [await make({ tokenSecret: secret, dataDir }), await make({ tokenSecret: secret, dataDir: join(dataDir, 'other') })];
    expect(b.check(a.issue(session, until), session, new Date())).toBe('valid');
    await expect(stat(join(dataDir, 'kiosk-token.key'))).rejects.toThrow();
  });
});
