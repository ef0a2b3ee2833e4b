import type { StartPaymentDto } from './start-payment.dto.js';
import type { StartPhoneAuthDto, StartPhoneSignDto } from './start-phone.dto.js';
import type { StartSessionDto } from './start-session.dto.js';
import type { StartSignDto } from './start-sign.dto.js';

/** Any of the start bodies, each validated by its route; the session core reads what its kind has. */
export type StartSessionBody = Partial<StartSessionDto & StartSignDto & StartPhoneAuthDto & StartPhoneSignDto & StartPaymentDto> &
  Pick<StartSessionDto, 'metadata'>;
