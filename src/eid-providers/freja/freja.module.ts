import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { frejaConfig } from './freja.config.js';
import { rpCertificateCheckProvider } from '../rp-certificate.check.js';
import { FREJA_CERTIFICATE_CHECK } from './freja-certificate-check.js';
import { FrejaConnections } from './freja-connections.js';
import { FrejaProvider } from './freja.provider.js';

// The module brings its own configuration namespace, so any context that loads it has it.
@Module({
  imports: [ConfigModule.forFeature(frejaConfig)],
  providers: [FrejaConnections, FrejaProvider, rpCertificateCheckProvider(FREJA_CERTIFICATE_CHECK, 'Freja', FrejaConnections)],
  exports: [FrejaProvider],
})
export class FrejaModule {}
