import { resolve } from 'node:path';
import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedPlatformEnv } from './env.validation.js';

export const kioskConfig = registerAs('kiosk', () => {
  const env = validatedPlatformEnv();
  return {
    /** Base64, 32+ bytes; absent outside production, where one is generated into dataDir. */
    tokenSecret: env.KIOSK_TOKEN_SECRET,
    dataDir: resolve(env.DATA_DIR),
    /** Who may embed the kiosk page in a frame (CSP frame-ancestors). */
    frameAncestors: env.KIOSK_FRAME_ANCESTORS,
    /** Open event streams per client address and process. */
    streamsPerAddress: env.KIOSK_STREAMS_PER_ADDRESS,
  };
});

export type KioskConfig = ConfigType<typeof kioskConfig>;
