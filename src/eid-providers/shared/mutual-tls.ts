import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { TLSSocket, createSecureContext, type SecureContextOptions } from 'node:tls';

/** The client credentials of one environment; each `source` entry names the variable a value came from. */
export interface MutualTlsCredentials {
  source: { pfx: string; passphrase: string; cert: string; key: string; ca: string };
  pfx?: string;
  passphrase?: string;
  cert?: string;
  key?: string;
  ca?: string;
}

/** The client side of a provider's mutual TLS (BankID's, Freja's): the RP certificate and key, and the provider's CA pinned. */
export interface MutualTls {
  options: Pick<SecureContextOptions, 'pfx' | 'passphrase' | 'cert' | 'key' | 'ca'>;
  /** The RP certificate: its expiry is a recurring cause of outages, so readiness watches it. */
  certificate: X509Certificate;
}

/** Key material could not be loaded; the message names the variable, never its value. */
export class MutualTlsCredentialsError extends Error {
  override name = 'MutualTlsCredentialsError';
}

type ReadFile = (path: string) => Buffer;

export function loadMutualTls(config: MutualTlsCredentials, readFile: ReadFile = readFileSync): MutualTls {
  const { source } = config;
  const options: MutualTls['options'] = config.pfx
    ? { pfx: binaryValue(config.pfx, source.pfx, readFile), passphrase: config.passphrase }
    : { cert: pemValue(config.cert, source.cert, readFile), key: pemValue(config.key, source.key, readFile) };
  if (config.ca) {
    options.ca = pemValue(config.ca, source.ca, readFile);
    try {
      new X509Certificate(options.ca);
    } catch {
      throw new MutualTlsCredentialsError(`${source.ca} is not a PEM certificate`);
    }
  }
  return {
    options,
    certificate: rpCertificate(options, config.pfx ? `${source.pfx}/${source.passphrase}` : `${source.cert}/${source.key}`),
  };
}

// A value is a file path, or the key material itself: PEM text as is, a PKCS#12 file as `base64:…`.
function pemValue(value: string | undefined, variable: string, readFile: ReadFile): Buffer {
  if (!value) throw new MutualTlsCredentialsError(`${variable} is missing`);
  return value.trimStart().startsWith('-----BEGIN ') ? Buffer.from(value) : read(value, variable, readFile);
}

function binaryValue(value: string, variable: string, readFile: ReadFile): Buffer {
  return value.startsWith('base64:') ? Buffer.from(value.slice('base64:'.length), 'base64') : read(value, variable, readFile);
}

function read(path: string, variable: string, readFile: ReadFile): Buffer {
  try {
    return readFile(path);
  } catch (error) {
    throw new MutualTlsCredentialsError(`${variable}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Loads the material exactly as the TLS client will, and takes the certificate it would present. */
function rpCertificate(options: MutualTls['options'], variables: string): X509Certificate {
  let socket: TLSSocket | undefined;
  try {
    // Node has no PKCS#12 parser besides TLS itself: an unconnected socket shows the local certificate.
    socket = new TLSSocket(new Socket(), { secureContext: createSecureContext(options) });
    const certificate = socket.getCertificate();
    const raw = certificate && 'raw' in certificate ? certificate.raw : undefined;
    if (!raw) throw new Error('no certificate in the key material');
    return new X509Certificate(raw);
  } catch (error) {
    // OpenSSL's reasons (mac verify failure, unsupported, key values mismatch) carry no key material.
    throw new MutualTlsCredentialsError(
      `${variables}: the RP certificate cannot be loaded (${(error as Error).message}). A wrong passphrase, a key that does not ` +
        'match the certificate, or a legacy (RC2) .p12 that OpenSSL 3 refuses are the usual causes; see docs/bankid.md.',
    );
  } finally {
    socket?.destroy();
  }
}
