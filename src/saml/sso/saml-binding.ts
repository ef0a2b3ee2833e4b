import type { FastifyRequest } from 'fastify';
import type { SamlifyHttpRequest } from '../samlify.js';
import { decodePostMessage, inflateRedirectMessage, SamlXmlError } from '../saml-xml.js';

export type SamlBinding = 'redirect' | 'post';

/** A protocol message as its binding carried it (SAML Bindings 3.4 and 3.5). */
export interface BoundMessage {
  binding: SamlBinding;
  xml: string;
  relayState?: string;
  /** What samlify verifies the signature over: the form, or the query and its signed octets. */
  samlify: SamlifyHttpRequest;
}

// SAML Bindings 3.4.3: RelayState MUST NOT exceed 80 bytes.
const RELAY_STATE_MAX_BYTES = 80;

/**
 * Redirect: the signature covers the query parameters exactly as sent, in this order (SAML Bindings
 * 3.4.4.1), so the octets come from the raw URL, not from the parsed query.
 */
function signedOctets(url: string, parameter: string): string {
  const query = url.slice(url.indexOf('?') + 1);
  const parts = query.split('&');
  return [parameter, 'RelayState', 'SigAlg']
    .map((name) => parts.find((part) => part.startsWith(`${name}=`)))
    .filter((part): part is string => part !== undefined)
    .join('&');
}

export function readBoundMessage(request: FastifyRequest, binding: SamlBinding, parameter: 'SAMLRequest' = 'SAMLRequest'): BoundMessage {
  const fields = ((binding === 'redirect' ? request.query : request.body) ?? {}) as Record<string, unknown>;
  const encoded = fields[parameter];
  if (typeof encoded !== 'string' || !encoded) throw new SamlXmlError(`The request carries no ${parameter}`);
  const relayState = fields.RelayState;
  if (relayState !== undefined && (typeof relayState !== 'string' || Buffer.byteLength(relayState) > RELAY_STATE_MAX_BYTES))
    throw new SamlXmlError('RelayState must be at most 80 bytes');
  if (binding === 'redirect') {
    return {
      binding,
      xml: inflateRedirectMessage(encoded),
      relayState,
      samlify: { query: fields, octetString: signedOctets(request.url, parameter) },
    };
  }
  return { binding, xml: decodePostMessage(encoded), relayState, samlify: { body: fields } };
}
