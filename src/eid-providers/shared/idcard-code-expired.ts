import { DomainException } from '../../common/problem-details/domain.exception.js';

/** An ID card code the provider will not verify again: expired or used (docs/idcard.md), 409 qr_expired. */
export const idCardCodeExpired = (): DomainException =>
  new DomainException('qr_expired', 'The ID card code has expired or was used already; ask the holder to show the card again.', {
    status: 409,
  });
