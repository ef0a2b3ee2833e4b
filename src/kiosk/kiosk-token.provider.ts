import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
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
    try {
      // 'wx': never overwrite a secret another process wrote meanwhile (WEB_CONCURRENCY workers start together).
      await writeFile(file, `${secret.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
      return new KioskTokenSigner(secret);
    } catch (error) {
      const written = (error as NodeJS.ErrnoException).code === 'EEXIST' ? await read() : undefined;
      if (!written) throw error;
      return new KioskTokenSigner(Buffer.from(written, 'base64'));
    }
  },
};
