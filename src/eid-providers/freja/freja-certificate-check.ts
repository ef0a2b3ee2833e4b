/** The expiry check of the Freja RP certificates, an RpCertificateCheck. */
export const FREJA_CERTIFICATE_CHECK = Symbol('FREJA_CERTIFICATE_CHECK');
