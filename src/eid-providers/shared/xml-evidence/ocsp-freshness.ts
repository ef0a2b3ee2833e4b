import type * as pkijs from 'pkijs';

/** How far the responder's clock and the service's may differ. */
export const OCSP_CLOCK_SKEW_MS = 60_000;
/** How close to the completion a response without a covering validity window must have been produced. */
export const OCSP_PRODUCED_WITHIN_MS = 5 * 60_000;

/**
 * Whether a response speaks of the moment the session completed (docs/evidence.md): its validity window
 * (thisUpdate to nextUpdate) covers the completion, or, for a responder that answers each request
 * fresh, it was produced within minutes of it. A response from before the window, or one that says
 * nothing about a time near the completion, is no proof of status at the signature.
 */
export function isFreshOcspResponse(single: pkijs.SingleResponse, producedAt: Date, completedAt: Date): boolean {
  const at = completedAt.getTime();
  const thisUpdate = single.thisUpdate.getTime();
  const nextUpdate = single.nextUpdate?.getTime();
  if (thisUpdate > at + OCSP_CLOCK_SKEW_MS) return false;
  if (nextUpdate !== undefined && at > nextUpdate + OCSP_CLOCK_SKEW_MS) return false;
  const windowCovers = nextUpdate !== undefined;
  const producedNear = Math.abs(producedAt.getTime() - at) <= OCSP_PRODUCED_WITHIN_MS;
  return windowCovers || producedNear;
}
