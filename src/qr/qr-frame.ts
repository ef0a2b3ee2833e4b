import { createHmac } from 'node:crypto';

/** Whole seconds since the provider created the order (BankID RP API v6: the auth response time). */
export function qrTimeAt(orderTime: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - orderTime.getTime()) / 1000));
}

/** Lower-case hex HMAC-SHA256 of the decimal qrTime, keyed with qrStartSecret. */
export function qrAuthCode(qrStartSecret: string, qrTime: number): string {
  return createHmac('sha256', qrStartSecret).update(String(qrTime)).digest('hex');
}

/** `bankid.{qrStartToken}.{qrTime}.{qrAuthCode}`: the content of one frame of the animated QR. */
export function qrData(qrStartToken: string, qrStartSecret: string, qrTime: number): string {
  return `bankid.${qrStartToken}.${qrTime}.${qrAuthCode(qrStartSecret, qrTime)}`;
}

/** A pending session's QR: the animated code made from its secret, or a provider's code that never changes. */
export type QrSource = { kind: 'animated'; startToken: string; startSecret: string } | { kind: 'static'; qrData: string };

/** What the QR shows `qrTime` seconds into the order; a static code has no qrTime. */
export function qrFrame(source: QrSource, qrTime: number): { qrData: string; qrTime?: number } {
  return source.kind === 'static' ? { qrData: source.qrData } : { qrData: qrData(source.startToken, source.startSecret, qrTime), qrTime };
}

export interface ParsedQrData {
  qrStartToken: string;
  qrTime: number;
  qrAuthCode: string;
}

const QR_DATA = /^bankid\.([0-9a-fA-F-]{36})\.(\d{1,6})\.([0-9a-f]{64})$/;

export function parseQrData(text: string): ParsedQrData | null {
  const match = QR_DATA.exec(text);
  if (!match) return null;
  return { qrStartToken: match[1].toLowerCase(), qrTime: Number(match[2]), qrAuthCode: match[3] };
}
