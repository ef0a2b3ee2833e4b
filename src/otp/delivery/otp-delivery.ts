export type OtpChannel = 'email' | 'sms';

export interface OtpMessage {
  channel: OtpChannel;
  /** E-mail address or E.164 number. */
  to: string;
  /** Empty for a notice that carries no code (wrong codes for the account, docs/console.md). */
  code: string;
  /** The text the person reads. */
  text: string;
}

/** The seam through which codes leave the service: SMTP, an SMS gateway over HTTP, or the dev console. */
export abstract class OtpDelivery {
  /** The channels this delivery can reach. */
  abstract readonly channels: readonly OtpChannel[];

  /** Resolves once the message is accepted downstream; throws OtpDeliveryError otherwise. */
  abstract send(message: OtpMessage): Promise<void>;
}

/** The code did not reach the mail server or gateway; the message is safe to log (no code, no address). */
export class OtpDeliveryError extends Error {
  override name = 'OtpDeliveryError';
}
