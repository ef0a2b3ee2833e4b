import type { Provider } from '@nestjs/common';
import { DataCipher } from '../common/crypto/data-cipher.js';

/**
 * The server secret that keys code hashes and unknown users' userGuids. Derived from the data key, so
 * every replica has the same one without another variable (and the dev default lives in DATA_DIR).
 */
export class OtpSecret {
  constructor(readonly key: Buffer) {}
}

export const otpSecretProvider: Provider = {
  provide: OtpSecret,
  inject: [DataCipher],
  useFactory: (cipher: DataCipher) => new OtpSecret(cipher.deriveKey('otp')),
};
