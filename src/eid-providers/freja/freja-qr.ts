import type { FrejaOperation } from './freja-rp-api.js';

/**
 * Freja's QR code is static: the app link that binds the user to the transaction, for auth and sign
 * alike (docs/freja.md). The same link opens the app on the same device.
 */
export const frejaQrData = (reference: string): string =>
  `frejaeid://bindUserToTransaction?transactionReference=${encodeURIComponent(reference)}`;

// The session keeps one opaque order reference; Freja's calls differ by operation, so it travels along.
export const frejaOrderRef = (operation: FrejaOperation, reference: string): string => `${operation}:${reference}`;

export function parseFrejaOrderRef(orderRef: string): { operation: FrejaOperation; reference: string } {
  const separator = orderRef.indexOf(':');
  const operation = orderRef.slice(0, separator);
  if (operation !== 'auth' && operation !== 'sign') throw new Error('not a Freja order reference');
  return { operation, reference: orderRef.slice(separator + 1) };
}
