import type { Transporter } from 'nodemailer';
import { OtpDelivery, OtpDeliveryError, type OtpMessage } from './otp-delivery.js';

/** E-mail through the SMTP server of SMTP_URL (nodemailer). */
export class SmtpOtpDelivery extends OtpDelivery {
  readonly channels = ['email'] as const;
  /** Made with the first message: nodemailer is loaded then, not at every start (docs/performance.md, "Start-up"). */
  private transport: Promise<Transporter> | null = null;

  constructor(
    private readonly url: string,
    private readonly from: string,
    private readonly timeoutMs: number,
  ) {
    super();
  }

  async send(message: OtpMessage): Promise<void> {
    const transport = await (this.transport ??= this.createTransport());
    try {
      // A message without a code is a notice about the account (docs/console.md, "Wrong codes").
      const subject = message.code ? 'Your login code' : 'Wrong login codes for your account';
      await transport.sendMail({ from: this.from, to: message.to, subject, text: message.text });
    } catch (error) {
      // Only the kind and the SMTP status: the server's reply text may quote the recipient's address.
      const { code, responseCode } = error as { code?: string; responseCode?: number };
      throw new OtpDeliveryError(`SMTP delivery failed: ${code ?? 'error'}${responseCode ? ` (${responseCode})` : ''}`);
    }
  }

  private async createTransport(): Promise<Transporter> {
    const { default: nodemailer } = await import('nodemailer');
    const timeoutMs = this.timeoutMs;
    return nodemailer.createTransport({
      url: this.url,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
  }
}
