import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { frejaConfig } from '../../config/freja.config.js';
import { FrejaCertificateCheck } from './freja-certificate.check.js';
import { FrejaConnections } from './freja-connections.js';
import { FrejaProvider } from './freja.provider.js';

// The module brings its own configuration namespace, so any context that loads it has it.
@Module({
  imports: [ConfigModule.forFeature(frejaConfig)],
  providers: [FrejaConnections, FrejaProvider, FrejaCertificateCheck],
  exports: [FrejaProvider, FrejaCertificateCheck],
})
export class FrejaModule {}
