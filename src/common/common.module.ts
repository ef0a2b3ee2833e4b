import { Global, Module } from '@nestjs/common';
import { Clock, SystemClock } from './clock/clock.js';
import { DataCipher } from './crypto/data-cipher.js';
import { dataCipherProvider } from './crypto/data-cipher.provider.js';

@Global()
@Module({
  providers: [{ provide: Clock, useClass: SystemClock }, dataCipherProvider],
  exports: [Clock, DataCipher],
})
export class CommonModule {}
