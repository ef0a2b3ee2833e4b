import * as pkijs from 'pkijs';

const BASIC_CONSTRAINTS = '2.5.29.19';
const KEY_USAGE = '2.5.29.15';
const SERIAL_NUMBER_ATTRIBUTE = '2.5.4.5';
// KeyUsage bits of the first byte (RFC 5280 §4.2.1.3).
const DIGITAL_SIGNATURE = 0x80;
const NON_REPUDIATION = 0x40;
const KEY_CERT_SIGN = 0x04;

/**
 * Whether a certificate may be a user's signing certificate: not a CA, and, when it states a key usage,
 * one that signs (digitalSignature or nonRepudiation) and never keyCertSign (docs/evidence.md).
 */
export function isSigningEndEntity(certificate: pkijs.Certificate): boolean {
  const extensions = certificate.extensions ?? [];
  const constraints = extensions.find((e) => e.extnID === BASIC_CONSTRAINTS)?.parsedValue as pkijs.BasicConstraints | undefined;
  if (constraints?.cA === true) return false;
  const usage = extensions.find((e) => e.extnID === KEY_USAGE);
  if (!usage) return true;
  const bits = (usage.parsedValue as { valueBlock?: { valueHexView?: Uint8Array } } | undefined)?.valueBlock?.valueHexView;
  if (!bits || bits.length === 0) return false;
  return (bits[0] & (DIGITAL_SIGNATURE | NON_REPUDIATION)) !== 0 && (bits[0] & KEY_CERT_SIGN) === 0;
}

/** The personal number a user certificate names: its subject's serialNumber attribute (docs/bankid.md). */
export function personalNumberOf(certificate: pkijs.Certificate): string | undefined {
  const attribute = certificate.subject.typesAndValues.find((t) => t.type === SERIAL_NUMBER_ATTRIBUTE);
  const value: unknown = (attribute?.value as { valueBlock?: { value?: unknown } } | undefined)?.valueBlock?.value;
  return typeof value === 'string' ? value : undefined;
}
