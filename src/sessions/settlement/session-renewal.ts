import { Injectable, Logger } from '@nestjs/common';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import type { StartOrderRequest } from '../../eid-providers/eid-provider.js';
import { EidProviderRegistry } from '../../eid-providers/eid-provider.registry.js';
import { describeProviderError } from './provider-error.js';
import { renewalRequestAad } from '../session-encryption.js';
import { orderColumnsOf } from '../session-order-columns.js';
import type { SessionTransition } from '../session-state.js';
import { SessionStore } from '../session.store.js';
import type { Session } from '../session.entity.js';

/** autoRenew (docs/same-device.md): an order nobody picked up is replaced under the same session. */
@Injectable()
export class SessionRenewal {
  private readonly logger = new Logger(SessionRenewal.name);

  constructor(
    private readonly store: SessionStore,
    private readonly providers: EidProviderRegistry,
    private readonly cipher: DataCipher,
  ) {}

  /** Whether this failure is one the session's provider renews after (its `renewsAfter`), with time left. */
  renews(session: Session, transition: SessionTransition, now: Date): boolean {
    if (transition.kind !== 'fail' || !session.autoRenew || now >= session.expiresAt) return false;
    return this.providers.profileOf(session.provider)?.renewsAfter?.includes(transition.hintCode) ?? false;
  }

  /**
   * Starts a new order with the session's first request (the same returnUrl and nonce) and puts it in
   * place; if the provider cannot start one now, the next collect tries again.
   */
  async renew(session: Session, now: Date): Promise<void> {
    const provider = this.providers.find(session.provider);
    if (!provider || !session.renewalRequestEnc) return;
    try {
      const request = this.cipher.decryptJson<StartOrderRequest>(session.renewalRequestEnc, renewalRequestAad(session.id));
      const renewed = orderColumnsOf(this.cipher, session.id, await provider.start(request));
      if (await this.store.renewOrder(session.id, session.orderRef, renewed, now)) {
        Object.assign(session, renewed, { hintCode: 'outstandingTransaction', renewals: session.renewals + 1, lastCollectedAt: now });
      }
    } catch (error) {
      this.logger.warn({ sessionId: session.id, provider: session.provider, err: describeProviderError(error) }, 'Order renewal failed');
    }
  }
}
