import { OtpDelivery, type OtpMessage } from './otp-delivery.js';

/**
 * Development only (refused when NODE_ENV=production): prints the code on the terminal, outside the
 * structured log, so log shipping never carries a code.
 */
export class LogOtpDelivery extends OtpDelivery {
  readonly channels = ['sms', 'email'] as const;

  async send(message: OtpMessage): Promise<void> {
    process.stdout.write(`\n  [OTP_DELIVERY=log] ${message.channel} to ${message.to}: ${message.text}\n\n`);
  }
}
