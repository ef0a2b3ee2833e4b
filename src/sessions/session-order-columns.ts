import type { DataCipher } from '../common/crypto/data-cipher.js';
import type { StartedOrder } from '../eid-providers/eid-provider.js';
import { launchUrlAad, qrSecretAad } from './session-encryption.js';
import type { Session } from './session.entity.js';

export type OrderColumns = Pick<Session, 'orderRef' | 'qrStartToken' | 'qrStartSecretEnc' | 'orderTime' | 'launchUrlEnc'>;

/** The columns a started order fills, its secrets encrypted to the session's row: at the start and at each renewal. */
export function orderColumnsOf(cipher: DataCipher, sessionId: string, order: StartedOrder): OrderColumns {
  return {
    orderRef: order.orderRef,
    qrStartToken: order.qr?.startToken ?? null,
    qrStartSecretEnc: order.qr ? cipher.encrypt(order.qr.startSecret, qrSecretAad(sessionId)) : null,
    orderTime: order.orderTime,
    launchUrlEnc: order.launchUrl ? cipher.encrypt(order.launchUrl, launchUrlAad(sessionId)) : null,
  };
}
