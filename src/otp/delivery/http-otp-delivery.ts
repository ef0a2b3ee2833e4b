import { OtpDelivery, OtpDeliveryError, type OtpMessage } from './otp-delivery.js';

/** docs/otp-and-tokens.md: POST `{channel, to, code, message}` to OTP_HTTP_URL, an SMS (or e-mail) gateway. */
export class HttpOtpDelivery extends OtpDelivery {
  readonly channels = ['sms', 'email'] as const;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {
    super();
  }

  async send(message: OtpMessage): Promise<void> {
    let response: Response;
    try {
      // Node's fetch is undici's; a redirect is refused rather than followed, so the code goes nowhere else.
      response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ channel: message.channel, to: message.to, code: message.code, message: message.text }),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new OtpDeliveryError(`OTP gateway unreachable: ${(error as Error).name}`);
    }
    await response.body?.cancel();
    if (response.status < 200 || response.status > 299) throw new OtpDeliveryError(`OTP gateway answered ${response.status}`);
  }
}
