import { createHmac } from 'node:crypto';

/**
 * The animated QR rule of BankID's RP API v6, which the simulator copies (docs/bankid.md, "QR"):
 * every second a new frame `bankid.{qrStartToken}.{qrTime}.{qrAuthCode}`.
 */

/** Lower-case hex HMAC-SHA256 of the decimal qrTime, keyed with qrStartSecret. */
export function qrAuthCode(qrStartSecret: string, qrTime: number): string {
  return createHmac('sha256', qrStartSecret).update(String(qrTime)).digest('hex');
}

/** `bankid.{qrStartToken}.{qrTime}.{qrAuthCode}`: the content of one frame of the animated QR. */
export function qrData(qrStartToken: string, qrStartSecret: string, qrTime: number): string {
  return `bankid.${qrStartToken}.${qrTime}.${qrAuthCode(qrStartSecret, qrTime)}`;
}

/** The port's animated QR profile for providers that follow this rule. */
export const ANIMATED_QR = {
  kind: 'animated',
  frame: ({ startToken, startSecret }: { startToken: string; startSecret: string }, qrTime: number) =>
    qrData(startToken, startSecret, qrTime),
} as const;

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
