import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { rpCertificateCheckProvider } from '../rp-certificate.check.js';
import { XmlEvidenceModule } from '../shared/xml-evidence/xml-evidence.module.js';
import { BANKID_CERTIFICATE_CHECK } from './bankid-certificate-check.js';
import { bankIdConfig } from './bankid.config.js';
import { BankIdConnections } from './bankid-connections.js';
import { BankIdEvidenceRoots } from './bankid-evidence-roots.js';
import { BankIdProvider } from './bankid.provider.js';

// The module brings its own configuration namespace, so any context that loads it has it.
@Module({
  imports: [ConfigModule.forFeature(bankIdConfig), XmlEvidenceModule],
  providers: [
    BankIdConnections,
    BankIdEvidenceRoots,
    BankIdProvider,
    rpCertificateCheckProvider(BANKID_CERTIFICATE_CHECK, 'BankID', BankIdConnections),
  ],
  exports: [BankIdProvider],
})
export class BankIdModule {}
