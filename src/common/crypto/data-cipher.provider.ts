import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Provider } from '@nestjs/common';
import { securityConfig, type SecurityConfig } from '../../config/security.config.js';
import { DataCipher } from './data-cipher.js';

const KEY_FILE = 'data-encryption.key';

/**
 * The key comes from DATA_ENCRYPTION_KEY (required in production). In development a key is
 * generated once into DATA_DIR so that `npm start` needs no setup and restarts can still decrypt.
 */
export const dataCipherProvider: Provider = {
  provide: DataCipher,
  inject: [securityConfig.KEY],
  useFactory: async (config: SecurityConfig) => {
    if (config.dataEncryptionKey) return new DataCipher(Buffer.from(config.dataEncryptionKey, 'base64'));
    const file = join(config.dataDir, KEY_FILE);
    const existing = await readFile(file, 'utf8').catch(() => null);
    if (existing) return new DataCipher(Buffer.from(existing.trim(), 'base64'));
    await mkdir(config.dataDir, { recursive: true });
    const key = randomBytes(32);
    try {
      // 'wx': never overwrite a key another process (a sibling worker) created meanwhile; use its key.
      await writeFile(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
      return new DataCipher(key);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return new DataCipher(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64'));
    }
  },
};
