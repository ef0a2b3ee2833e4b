import { Module } from '@nestjs/common';
import { rpCertificateCheckProvider } from '../rp-certificate.check.js';
import { XmlEvidenceModule } from '../shared/xml-evidence/xml-evidence.module.js';
import { BANKID_CERTIFICATE_CHECK } from './bankid-certificate-check.js';
import { BankIdConnections } from './bankid-connections.js';
import { BankIdEvidenceRoots } from './bankid-evidence-roots.js';
import { BankIdProvider } from './bankid.provider.js';

@Module({
  imports: [XmlEvidenceModule],
  providers: [
    BankIdConnections,
    BankIdEvidenceRoots,
    BankIdProvider,
    rpCertificateCheckProvider(BANKID_CERTIFICATE_CHECK, 'BankID', BankIdConnections),
  ],
  exports: [BankIdProvider],
})
export class BankIdModule {}
