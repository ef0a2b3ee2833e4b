import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Provider } from '@nestjs/common';
import { kioskConfig, type KioskConfig } from '../config/kiosk.config.js';
import { KioskTokenSigner } from './kiosk-token.js';

const SECRET_FILE = 'kiosk-token.key';

/**
 * The secret comes from KIOSK_TOKEN_SECRET (required in production, shared by every replica). In
 * development one is generated once into DATA_DIR, so kiosk links survive a restart.
 */
export const kioskTokenSignerProvider: Provider = {
  provide: KioskTokenSigner,
  inject: [kioskConfig.KEY],
  useFactory: async (config: KioskConfig) => {
    if (config.tokenSecret) return new KioskTokenSigner(Buffer.from(config.tokenSecret, 'base64'));
    const file = join(config.dataDir, SECRET_FILE);
    const read = async () => (await readFile(file, 'utf8').catch(() => null))?.trim();
    const existing = await read();
    if (existing) return new KioskTokenSigner(Buffer.from(existing, 'base64'));
    await mkdir(config.dataDir, { recursive: true });
    const secret = randomBytes(32);
    // Written whole under a private name, then linked into place: link never overwrites a secret another
    // process put there meanwhile (WEB_CONCURRENCY workers start together), and no process can read a
    // half-written file, as it could between the create and the write of an exclusive open.
    const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
    await writeFile(draft, `${secret.toString('base64')}\n`, { mode: 0o600 });
    try {
      await link(draft, file);
      return new KioskTokenSigner(secret);
    } catch (error) {
      const written = (error as NodeJS.ErrnoException).code === 'EEXIST' ? await read() : undefined;
      if (!written) throw error;
      return new KioskTokenSigner(Buffer.from(written, 'base64'));
    } finally {
      await rm(draft, { force: true });
    }
  },
};
