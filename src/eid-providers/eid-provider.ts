import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';

/**
 * The port every national e-ID implements. Shaped after BankID RP API v6 (order + collect every
 * 2 s), general enough for Freja eID (authRef, getOneResult) and redirect-style providers: what a
 * provider does not have (a QR secret, an autostart token, a redirect) is simply absent.
 */
export interface EidProvider {
  readonly name: string;
  /** Whether keys of this environment may use the provider (the simulator is test-only). */
  supports(environment: ApiKeyEnvironment): boolean;
  start(request: StartOrderRequest): Promise<StartedOrder>;
  collect(order: OrderReference): Promise<CollectResult>;
  /**
   * For providers that can answer for many orders in one call (the simulator reads its order book
   * once per batch); the background collector uses it when present. Missing orders are left out.
   */
  collectMany?(orders: OrderReference[]): Promise<Map<string, CollectResult>>;
  cancel(order: OrderReference): Promise<void>;
  /** For providers that keep orders of their own: drops those no session can collect any more. */
  purgeOrdersCreatedBefore?(createdBefore: Date): Promise<void>;
}

export interface StartOrderRequest {
  environment: ApiKeyEnvironment;
  endUserIp: string;
  userVisibleData?: string;
  userVisibleDataFormat?: 'plaintext' | 'simpleMarkdownV1';
  requirement?: Record<string, unknown>;
  /** Where the e-ID app sends the user back after an autostart (same-device) order. */
  returnUrl?: string;
}

export interface OrderReference {
  environment: ApiKeyEnvironment;
  orderRef: string;
}

export interface StartedOrder {
  /** BankID orderRef, Freja authRef. */
  orderRef: string;
  /** When the provider created the order: the QR clock starts here (BankID: the auth response time). */
  orderTime: Date;
  /** For an animated QR (BankID). Never sent to a browser. */
  qr?: { startToken: string; startSecret: string };
  autoStartToken?: string;
  /**
   * The link that opens the e-ID app on the person's own device (BankID's universal link, the
   * simulator's own app page); absent where the provider has no same-device start (docs/same-device.md).
   */
  launchUrl?: string;
}

export type CollectStatus = 'pending' | 'complete' | 'failed';

export interface CompletedIdentity {
  user: { personalNumber: string; name: string; givenName: string; surname: string };
  device?: { ipAddress?: string; uhi?: string };
  /** Provider evidence kept for audit (BankID: bankIdIssueDate, stepUp, signature, ocspResponse, risk). */
  evidence?: Record<string, unknown>;
}

export interface CollectResult {
  status: CollectStatus;
  /** BankID's vocabulary, passed through; unknown codes stay as they are. */
  hintCode?: string;
  completion?: CompletedIdentity;
}

/** The provider could not be reached or answered with an outage: 502 provider_unavailable. */
export class ProviderUnavailableError extends Error {
  override name = 'ProviderUnavailableError';
}
