/** How an outbound call to a provider failed before any answer: for retries and the operator's log. */
export type TransportFailureKind = 'timeout' | 'network' | 'tls';

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
// OpenSSL's certificate verification results, as Node names them.
const CERTIFICATE_CODES = /^(ERR_SSL_|ERR_TLS_|UNABLE_TO_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;

/** Classifies an undici failure by the codes along its cause chain; `cause` is a code, never a message. */
export function transportFailure(error: unknown): { kind: TransportFailureKind; cause: string } {
  // Node errors carry a string code; the DOMException of an aborted signal a name (and a numeric code).
  const codes = causes(error).flatMap((e) =>
    [(e as NodeJS.ErrnoException).code, (e as Error).name].filter((c): c is string => typeof c === 'string'),
  );
  const kind: TransportFailureKind = codes.some((c) => c === 'TimeoutError' || TIMEOUT_CODES.has(c))
    ? 'timeout'
    : codes.some((c) => CERTIFICATE_CODES.test(c))
      ? 'tls'
      : 'network';
  return { kind, cause: codes.find((c) => !/Error$/.test(c) || c === 'TimeoutError') ?? 'unknown' };
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}
