import nodemailer, { type Transporter } from 'nodemailer';
import { OtpDelivery, OtpDeliveryError, type OtpMessage } from './otp-delivery.js';

/** E-mail through the SMTP server of SMTP_URL (nodemailer). */
export class SmtpOtpDelivery extends OtpDelivery {
  readonly channels = ['email'] as const;
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
    timeoutMs: number,
  ) {
    super();
    this.transport = nodemailer.createTransport({
      url,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
  }

  async send(message: OtpMessage): Promise<void> {
    try {
      // A message without a code is a notice about the account (docs/console.md, "Wrong codes").
      const subject = message.code ? 'Your login code' : 'Wrong login codes for your account';
      await this.transport.sendMail({ from: this.from, to: message.to, subject, text: message.text });
    } catch (error) {
      // Only the kind and the SMTP status: the server's reply text may quote the recipient's address.
      const { code, responseCode } = error as { code?: string; responseCode?: number };
      throw new OtpDeliveryError(`SMTP delivery failed: ${code ?? 'error'}${responseCode ? ` (${responseCode})` : ''}`);
    }
  }
}
