import { Module } from '@nestjs/common';
import { BankIdCertificateCheck } from './bankid-certificate.check.js';
import { BankIdConnections } from './bankid-connections.js';
import { BankIdProvider } from './bankid.provider.js';

@Module({
  providers: [BankIdConnections, BankIdProvider, BankIdCertificateCheck],
  exports: [BankIdProvider, BankIdCertificateCheck],
})
export class BankIdModule {}
