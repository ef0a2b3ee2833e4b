import { Module } from '@nestjs/common';
import { rpCertificateCheckProvider } from '../rp-certificate.check.js';
import { XmlEvidenceModule } from '../shared/xml-evidence/xml-evidence.module.js';
import { BankIdConnections } from './bankid-connections.js';
import { BankIdEvidenceRoots } from './bankid-evidence-roots.js';
import { BankIdProvider } from './bankid.provider.js';

/** The expiry check of the BankID RP certificates, an RpCertificateCheck. */
export const BANKID_CERTIFICATE_CHECK = Symbol('BANKID_CERTIFICATE_CHECK');

@Module({
  imports: [XmlEvidenceModule],
  providers: [
    BankIdConnections,
    BankIdEvidenceRoots,
    BankIdProvider,
    rpCertificateCheckProvider(BANKID_CERTIFICATE_CHECK, 'BankID', BankIdConnections),
  ],
  exports: [BankIdProvider, BANKID_CERTIFICATE_CHECK],
})
export class BankIdModule {}
