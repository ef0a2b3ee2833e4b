import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { constantTimeEqual } from '../../common/crypto/constant-time.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import { isUuid } from '../../common/validation/is-uuid.js';
import type { VerifiedIdCard } from '../eid-provider.js';
import { idCardCodeExpired } from '../shared/idcard-code-expired.js';
import { birthdateOfPersonalNumber } from '../shared/personal-number-birthdate.js';
import type { IssuedEvidence } from '../shared/xml-evidence/evidence-authority.js';
import { SimulatorEvidence } from './simulator-evidence.provider.js';
import type { NewSimulatorOrder } from './simulator-order.entity.js';
import { SimulatorOrderStore } from './simulator-order.store.js';
import { evidenceAad, secretAad, userAad } from './simulator-order-encryption.js';
import { simulatorConfig, type SimulatorConfig } from './simulator.config.js';

/** The holder the simulated app shows a card for: a Swedish person, always with a personal number. */
export interface SimulatedHolder {
  personalNumber: string;
  givenName: string;
  surname: string;
}

// BANKIDF.<card id>.<32 hex>: anchored, fixed-length parts, linear on any input.
const CODE = /^BANKIDF\.([0-9a-f-]{36})\.([0-9a-f]{32})$/;

/**
 * The simulator's digital ID cards (docs/idcard.md): its app page shows one as a `BANKIDF.` code good
 * for one verification within SIMULATOR_IDCARD_LIFETIME; verify answers as BankID's ID card API does,
 * the verification a XAdES and the holder's login an XML signature with OCSP, both from its test CA.
 * Cards are simulator orders of operation idcard, so they are purged with them.
 */
@Injectable()
export class SimulatorIdCards {
  constructor(
    private readonly orders: SimulatorOrderStore,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
    private readonly signer: SimulatorEvidence,
    @Inject(simulatorConfig.KEY) private readonly config: SimulatorConfig,
  ) {}

  /** The holder identifies in the simulated app and opens the card: its code and until when it may be verified. */
  async show(holder: SimulatedHolder): Promise<{ qrCode: string; expiresAt: Date }> {
    const now = this.clock.now();
    const cardId = randomUUID();
    const secret = randomBytes(16).toString('hex');
    const user = { ...holder, name: `${holder.givenName} ${holder.surname}` };
    // The holder's own BankID login that opened the card, signed now as the app would.
    const authentication = await this.signer.issue({ user, funcId: 'Identification', now });
    const card: NewSimulatorOrder = {
      orderRef: cardId,
      operation: 'idcard',
      channel: 'counter',
      endUserIp: null,
      qrStartToken: null,
      qrStartSecretEnc: this.cipher.encrypt(secret, secretAad(cardId)),
      autoStartTokenHash: null,
      personalNumberHash: null,
      userVisibleDataEnc: null,
      transactionEnc: null,
      createdAt: now,
      scannedAt: null,
      action: null,
      userEnc: this.cipher.encryptJson(user, userAad(cardId)),
      signedTextsEnc: null,
      evidenceEnc: this.cipher.encryptJson(authentication, evidenceAad(cardId)),
      cancelledAt: null,
      returnUrl: null,
    };
    await this.orders.insert(card);
    return { qrCode: `BANKIDF.${cardId}.${secret}`, expiresAt: new Date(now.getTime() + this.config.idCardLifetimeMs) };
  }

  /** A shown card's code, once and in time; anything else is 409 qr_expired, as BankID refuses it. */
  async verify(qrCode: string): Promise<VerifiedIdCard> {
    const now = this.clock.now();
    const [, cardId, secret] = CODE.exec(qrCode) ?? [];
    const card = cardId && isUuid(cardId) ? await this.orders.findIdCard(cardId) : null;
    const stored = card?.qrStartSecretEnc ? this.cipher.decrypt(card.qrStartSecretEnc, secretAad(cardId)) : undefined;
    if (!card || !stored || !constantTimeEqual(stored, secret)) throw idCardCodeExpired();
    if (now.getTime() >= card.createdAt.getTime() + this.config.idCardLifetimeMs) throw idCardCodeExpired();
    const user = this.cipher.decryptJson<SimulatedHolder & { name: string }>(card.userEnc!, userAad(cardId));
    const claimed = await this.orders.claimScan(cardId, {
      scannedAt: now,
      action: 'approve',
      userEnc: card.userEnc!,
      evidenceEnc: card.evidenceEnc,
    });
    if (!claimed) throw idCardCodeExpired();
    const authentication = this.cipher.decryptJson<IssuedEvidence>(card.evidenceEnc!, evidenceAad(cardId));
    const verificationId = randomUUID();
    const verifiedAt = now.toISOString();
    const identifiedAt = card.createdAt.toISOString();
    const birthdate = birthdateOfPersonalNumber(user.personalNumber);
    return {
      user: { ...user, age: birthdate ? ageOn(birthdate, now) : 0 },
      ...(birthdate ? { birthdate } : {}),
      verification: { verificationId, verifiedAt },
      authentication: { identifiedAt, orderRef: cardId },
      evidence: {
        verificationId,
        verifiedAt,
        identifiedAt,
        verificationSignature: await this.signer.issueIdCardVerification(
          { verificationId, personalNumber: user.personalNumber, verifiedAt },
          now,
        ),
        authenticationSignature: authentication.signature,
        ocspResponse: authentication.ocspResponse,
      },
    };
  }
}

/** Whole years at `now` (UTC) of a person born on `birthdate` (YYYY-MM-DD), as the simulated ID card API states it. */
function ageOn(birthdate: string, now: Date): number {
  const [year, month, day] = birthdate.split('-').map(Number);
  const hadBirthday = now.getUTCMonth() + 1 > month || (now.getUTCMonth() + 1 === month && now.getUTCDate() >= day);
  return now.getUTCFullYear() - year - (hadBirthday ? 0 : 1);
}
