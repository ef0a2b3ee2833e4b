/** The expiry check of the BankID RP certificates, an RpCertificateCheck. */
export const BANKID_CERTIFICATE_CHECK = Symbol('BANKID_CERTIFICATE_CHECK');
