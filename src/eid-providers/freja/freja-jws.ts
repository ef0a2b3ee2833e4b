import { createHash, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { compactVerify, decodeProtectedHeader } from 'jose';
import { detailsPayloadSchema, REFERENCE_FIELD, type DetailsPayload, type FrejaOperation } from './freja-rp-api.js';

/** Signing certificates could not be loaded; the message names the variable, never the content. */
export class FrejaJwsCertificatesError extends Error {
  override name = 'FrejaJwsCertificatesError';
}

/** Why a `details` JWS was not believed: for the operator's log, never the token itself. */
export class FrejaJwsRejected extends Error {
  override name = 'FrejaJwsRejected';
}

/** What the evidence check of a `details` JWS found. */
export interface FrejaEvidenceParts {
  signatureValid: boolean;
  certificateTrusted: boolean;
  signedDataMatches: boolean;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

/** `x5t`: base64url of the SHA-1 of the certificate's DER bytes (RFC 7515 4.1.7). */
export const x5tOf = (certificate: X509Certificate): string => createHash('sha1').update(certificate.raw).digest('base64url');

interface SigningCertificate {
  key: KeyObject;
  validFrom: Date;
  validTo: Date;
}

/**
 * Freja's result signing certificates of one environment, by `x5t`. A result is believed only if
 * its `details` verify with one of them (RS256) that was valid at the time asked about (docs/freja.md,
 * "Evidence"), and they speak of the transaction asked about.
 */
export class FrejaJwsVerifier {
  private readonly certificates: Map<string, SigningCertificate>;

  constructor(pem: string, variable: string) {
    const blocks = pem.match(PEM_CERTIFICATE) ?? [];
    if (!blocks.length) throw new FrejaJwsCertificatesError(`${variable}: no PEM certificate in the file`);
    try {
      this.certificates = new Map(
        blocks
          .map((block) => new X509Certificate(block))
          .map((c) => [x5tOf(c), { key: c.publicKey, validFrom: new Date(c.validFrom), validTo: new Date(c.validTo) }]),
      );
    } catch {
      throw new FrejaJwsCertificatesError(`${variable}: a certificate in the file cannot be read`);
    }
  }

  static fromFile(path: string, variable: string, readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): FrejaJwsVerifier {
    let pem: string;
    try {
      pem = readFile(path);
    } catch (error) {
      throw new FrejaJwsCertificatesError(`${variable}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    return new FrejaJwsVerifier(pem, variable);
  }

  /**
   * The evidence check of stored `details`, part by part (docs/evidence.md): signed by a configured
   * certificate valid at `at` (the completion), the signature holds, and it speaks of this
   * transaction's approval. Never throws.
   */
  async check(details: string, operation: FrejaOperation, reference: string, at: Date): Promise<FrejaEvidenceParts> {
    const found = await this.inspect(details, operation, reference, at);
    const signed = found.failed !== 'format' && found.failed !== 'certificate' && found.failed !== 'signature';
    return { signatureValid: signed, certificateTrusted: found.trusted, signedDataMatches: found.failed === null };
  }

  /** A result's `details`, believed only when signed by a configured certificate valid at `at` (now). */
  async verify(details: string, operation: FrejaOperation, reference: string, at: Date): Promise<DetailsPayload> {
    const found = await this.inspect(details, operation, reference, at);
    if (found.failed === 'format' || found.failed === 'certificate') throw new FrejaJwsRejected(REJECTED[found.failed]);
    if (!found.trusted) throw new FrejaJwsRejected('details is signed with a certificate outside its validity');
    if (found.failed !== null) throw new FrejaJwsRejected(REJECTED[found.failed]);
    return found.payload;
  }

  /** Each step of believing `details`, up to the first that fails: `check` reports them, `verify` refuses on any. */
  private async inspect(details: string, operation: FrejaOperation, reference: string, at: Date): Promise<Inspection> {
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(details);
    } catch {
      return { failed: 'format', trusted: false };
    }
    const certificate = typeof header.x5t === 'string' ? this.certificates.get(header.x5t) : undefined;
    if (!certificate) return { failed: 'certificate', trusted: false };
    const trusted = validAt(certificate, at);
    let payload: unknown;
    try {
      const verified = await compactVerify(details, certificate.key, { algorithms: ['RS256'] });
      payload = JSON.parse(new TextDecoder().decode(verified.payload));
    } catch {
      return { failed: 'signature', trusted };
    }
    const parsed = detailsPayloadSchema.safeParse(payload);
    if (!parsed.success) return { failed: 'payload', trusted };
    if (parsed.data[REFERENCE_FIELD[operation]] !== reference || parsed.data.status !== 'APPROVED')
      return { failed: 'transaction', trusted };
    return { failed: null, trusted, payload: parsed.data };
  }
}

type Step = 'format' | 'certificate' | 'signature' | 'payload' | 'transaction';

/** Why `verify` refused, by the step that failed: for the operator's log, never the token itself. */
const REJECTED: Record<Step, string> = {
  format: 'details is not a compact JWS',
  certificate: 'details is signed with a certificate that is not configured (x5t)',
  signature: 'details does not verify with the certificate it names',
  payload: 'details carries a payload that is not Freja RP API 1.0',
  transaction: 'details speaks of another transaction or status',
};

/** `trusted`: the certificate was valid at the time asked about (false when none was found). */
type Inspection = { failed: Step; trusted: boolean } | { failed: null; trusted: boolean; payload: DetailsPayload };

const validAt = (certificate: SigningCertificate, at: Date): boolean =>
  certificate.validFrom.getTime() <= at.getTime() && at.getTime() <= certificate.validTo.getTime();
