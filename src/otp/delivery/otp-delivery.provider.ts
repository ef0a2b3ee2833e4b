import type { Provider } from '@nestjs/common';
import { otpConfig, type OtpConfig } from '../../config/otp.config.js';
import { HttpOtpDelivery } from './http-otp-delivery.js';
import { LogOtpDelivery } from './log-otp-delivery.js';
import { OtpDelivery } from './otp-delivery.js';
import { SmtpOtpDelivery } from './smtp-otp-delivery.js';

/** OTP_DELIVERY picks the channel; the configuration schema already required its URL. */
export const otpDeliveryProvider: Provider = {
  provide: OtpDelivery,
  inject: [otpConfig.KEY],
  useFactory: (config: OtpConfig): OtpDelivery => {
    switch (config.delivery) {
      case 'smtp':
        return new SmtpOtpDelivery(config.smtpUrl!, config.smtpFrom, config.deliveryTimeoutMs);
      case 'http':
        return new HttpOtpDelivery(config.httpUrl!, config.deliveryTimeoutMs);
      case 'log':
        // Also refused by the configuration schema; kept here so no other path can print codes in production.
        if (config.production) throw new Error('OTP_DELIVERY=log is refused when NODE_ENV=production');
        return new LogOtpDelivery();
    }
  },
};
