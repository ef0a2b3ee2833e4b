import { Module } from '@nestjs/common';
import { FrejaCertificateCheck } from './freja-certificate.check.js';
import { FrejaConnections } from './freja-connections.js';
import { FrejaProvider } from './freja.provider.js';

@Module({
  providers: [FrejaConnections, FrejaProvider, FrejaCertificateCheck],
  exports: [FrejaProvider, FrejaCertificateCheck],
})
export class FrejaModule {}
