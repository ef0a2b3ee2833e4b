import { Global, Module } from '@nestjs/common';
import { Clock, SystemClock } from './clock/clock.js';
import { DataCipher } from './crypto/data-cipher.js';
import { dataCipherProvider } from './crypto/data-cipher.provider.js';
import { Draining } from './shutdown/draining.js';

@Global()
@Module({
  providers: [{ provide: Clock, useClass: SystemClock }, dataCipherProvider, Draining],
  exports: [Clock, DataCipher, Draining],
})
export class CommonModule {}
