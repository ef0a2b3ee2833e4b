import type { VerifiedIdCard } from '../eid-provider.js';
import { birthdateOfPersonalNumber } from '../shared/personal-number-birthdate.js';
import type { IdCardVerifyResponse } from './bankid-rp-api.js';

/** BankID's verify answer as the ID card face gives it (docs/idcard.md): the signatures go to the evidence. */
export function verifiedIdCardOf({ user, verification, authentication }: IdCardVerifyResponse): VerifiedIdCard {
  const birthdate = birthdateOfPersonalNumber(user.personalNumber);
  return {
    user: { personalNumber: user.personalNumber, givenName: user.givenName, surname: user.surname, name: user.name, age: user.age },
    ...(birthdate ? { birthdate } : {}),
    verification: { verificationId: verification.verificationId, verifiedAt: verification.verifiedAt },
    authentication: { identifiedAt: authentication.identifiedAt, orderRef: authentication.orderRef },
    evidence: {
      verificationId: verification.verificationId,
      verifiedAt: verification.verifiedAt,
      identifiedAt: authentication.identifiedAt,
      verificationSignature: verification.signature,
      authenticationSignature: authentication.signature,
      ocspResponse: authentication.ocspResponse,
    },
  };
}
