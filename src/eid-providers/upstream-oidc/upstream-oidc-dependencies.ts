import type { Clock } from '../../common/clock/clock.js';
import type { DataCipher } from '../../common/crypto/data-cipher.js';
import type { UpstreamConnections } from './upstream-connections.js';
import type { UpstreamOrderStore } from './upstream-order.store.js';

/** What an upstream OpenID provider and its CIBA channel share from the module. */
export interface UpstreamOidcDependencies {
  connections: UpstreamConnections;
  orders: UpstreamOrderStore;
  cipher: DataCipher;
  clock: Clock;
  publicBaseUrl: string;
}
