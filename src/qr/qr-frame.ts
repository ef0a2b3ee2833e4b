/** Whole seconds since the provider created the order: the clock of an animated QR (docs/providers.md). */
export function qrTimeAt(orderTime: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - orderTime.getTime()) / 1000));
}

/**
 * A pending session's QR, as its provider makes it (docs/providers.md): frames that change every
 * second, or a code that never changes.
 */
export type QrSource = { kind: 'animated'; frameAt(qrTime: number): string } | { kind: 'static'; qrData: string };

/** What the QR shows `qrTime` seconds into the order; a static code has no qrTime. */
export function qrFrame(source: QrSource, qrTime: number): { qrData: string; qrTime?: number } {
  return source.kind === 'static' ? { qrData: source.qrData } : { qrData: source.frameAt(qrTime), qrTime };
}
