import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import type { PendingRow } from '../database/entity-insert.js';
import type { EvidenceVerification } from './evidence-verification.js';
import type { CertificateStatus } from './rp-certificate.check.js';
import type { UserMessageTable } from './user-messages.js';

/**
 * The port every national e-ID implements. Shaped after BankID RP API v6 (order + collect every
 * 2 s), general enough for Freja eID (authRef, getOneResult) and redirect-style providers: what a
 * provider does not have (a QR secret, an autostart token, a redirect) is simply absent.
 */
export interface EidProvider {
  readonly name: string;
  /**
   * The family a configured provider belongs to (the upstream OpenID providers are each `oidc`, the SAML IdPs `saml`):
   * PROVIDERS may enable the whole family by this name. Absent: the provider is its own family.
   */
  readonly kind?: string;
  /** Whether keys of this environment may use the provider (the simulator is test-only). */
  supports(environment: ApiKeyEnvironment): boolean;
  /** Whether the provider offers this operation on this channel (docs/api.md: operation_not_supported). */
  offers(operation: EidOperation, channel: EidChannel): boolean;
  start(request: StartOrderRequest): Promise<StartedOrder>;
  /**
   * For providers that keep orders of their own (the simulator): starts the order as start() does but
   * hands its row back unwritten, for the session's INSERT to write in the same statement: one round
   * trip, both rows or neither (docs/performance.md, "Statements and writes"). Absent: start() is used.
   */
  startWithSession?(request: StartOrderRequest): Promise<{ order: StartedOrder; row: PendingRow }>;
  collect(order: OrderReference): Promise<CollectResult>;
  /**
   * For providers that can answer for many orders in one call (the simulator reads its order book
   * once per batch); the background collector uses it when present. Missing orders are left out.
   */
  collectMany?(orders: OrderReference[]): Promise<Map<string, CollectResult>>;
  cancel(order: OrderReference): Promise<void>;
  /** For providers that keep orders of their own: drops those no session can collect any more. */
  purgeOrdersCreatedBefore?(createdBefore: Date): Promise<void>;
  /**
   * For providers whose own order keeps what a completion reported (the person, their evidence): drops
   * it from the order of an age-only session that has ended, in the session's own transaction
   * (docs/age-verification.md, "What is kept"). Absent: the provider keeps nothing of the person.
   */
  forgetCompletion?(order: OrderReference): Promise<void>;
  /** Its QR on the app channel (docs/providers.md); absent: the provider has none. */
  readonly qr?: QrProfile;
  /** Its words for the person in each state, and its app's name (docs/providers.md). */
  readonly messages: UserMessageTable;
  /** What it keeps of a completion's evidence and how that is verified (docs/evidence.md); absent: nothing is kept. */
  readonly evidence?: EvidenceProfile;
  /**
   * Its RP certificates by environment, for readiness (docs/operations.md): an expired one fails
   * `/health/ready` as `<name>Certificates`. Absent: the provider has none (the simulator).
   */
  certificateStatuses?(): CertificateStatus[];
  /**
   * autoRenew (docs/same-device.md): the failed hint codes that mean nobody picked the order up, after
   * which a session with time left gets a new order. Absent: its orders are never renewed.
   */
  readonly renewsAfter?: readonly string[];
  /**
   * What readiness reports of the provider beyond certificates (docs/operations.md): a check under
   * `checks[name]` and warnings, such as an upstream whose metadata cannot be fetched. Never fails
   * readiness: the other providers still serve.
   */
  readiness?(): ProviderReadiness;
  /**
   * What the OpenID fronts (the OIDC login page, CIBA; later SAML) ask of it (docs/providers.md, "The
   * OpenID face"): the acr values it answers to, its amr, its CIBA channel. Absent: no front offers it.
   */
  readonly openId?: OpenIdFace;
  /** BankID's digital ID card checked at a counter (docs/idcard.md); absent: the provider has none. */
  readonly idCard?: IdCardFace;
}

/** The digital ID card face of a provider (docs/idcard.md): one verify call per scanned card. */
export interface IdCardFace {
  /**
   * The card's QR (`BANKIDF.…`) verified by the provider; an expired or used code throws 409
   * qr_expired, an outage 502 provider_unavailable.
   */
  verify(environment: ApiKeyEnvironment, qrCode: string): Promise<VerifiedIdCard>;
  /** What it keeps of a verification's evidence and how that is checked (both signatures). */
  readonly evidence: EvidenceProfile;
}

/** A verified digital ID card: the holder, the provider's verification of the card and the holder's own authentication. */
export interface VerifiedIdCard {
  user: IdentifiedUser & { personalNumber: string; age: number };
  /** The holder's date of birth read from the personal number; absent for a coordination number. */
  birthdate?: string;
  verification: { verificationId: string; verifiedAt: string };
  authentication: { identifiedAt: string; orderRef: string };
  /** The signed proof as the provider gave it; the face's EvidenceProfile says what is kept. */
  evidence: Record<string, unknown>;
}

/**
 * How an acr has the person use the e-ID: the app on the device of the login page (`same-device`), on
 * another device through the QR (`qr`), or either. The login page shows only what the acr allows.
 */
export type AcrDevice = 'same-device' | 'qr' | 'either';

export interface AcrValue {
  readonly acr: string;
  readonly device: AcrDevice;
}

export interface OpenIdFace {
  /** The e-ID's name as the person knows it, on the login page's chooser (docs/oidc.md, "The chooser"). */
  readonly displayName: string;
  /** Its logo on the chooser: a path on the service's own origin (the pages' CSP allows no other); none: the name alone. */
  readonly logo?: string;
  /** The acr values the provider answers to; the first is its default (a request without acr_values). */
  readonly acrValues: readonly AcrValue[];
  /** The id token's `amr` for a completion, from the evidence the provider kept of it (an upstream's own amr). */
  amr(evidence: Readonly<Record<string, unknown>> | undefined): string[];
  /** CIBA (docs/oidc.md, "CIBA"): the acr a backchannel request names it by and the channel it reaches the person on. */
  readonly ciba?: CibaFace;
  /** Whether a personal number in login_hint becomes the order's `requirement.personalNumber` (BankID's). */
  readonly personalNumberRequirement?: boolean;
  /**
   * The login page sends the browser to the order's launch link at once instead of showing a QR (an
   * upstream OpenID or SAML provider: the person signs in at the upstream in this very browser).
   */
  readonly redirectsBrowser?: boolean;
  /**
   * The SAML front (docs/saml.md): the AuthnContextClassRef values its logins meet, the first its
   * default. Absent: the SAML front does not offer it.
   */
  readonly samlAuthnContexts?: readonly string[];
  /** The claim names of business identities the provider may deliver (an upstream's `businessClaims`). */
  readonly businessClaims?: readonly string[];
}

export interface CibaFace {
  readonly acr: string;
  readonly channel: EidChannel;
  /**
   * The person a backchannel request's login_hint names, for a provider that takes another identifier
   * than a Swedish personal number (an upstream's, docs/upstream-oidc.md, "CIBA"): the identifier the
   * order is started with, and the person key (oidc-claims.ts `personKeyOf`) its completion must carry.
   * Absent: a Swedish personal number (docs/oidc.md, "CIBA").
   */
  loginHint?(hint: string): { identifier: string; personKey: string } | undefined;
}

export interface ProviderReadiness {
  check: Record<string, unknown>;
  warnings: string[];
}

/**
 * animated: a new frame every second, made from the order's `qr` secret (BankID's rule); static: one
 * code per order, made from its reference (Freja's app link).
 */
export type QrProfile =
  | { readonly kind: 'animated'; frame(secret: { startToken: string; startSecret: string }, qrTime: number): string }
  | { readonly kind: 'static'; data(orderRef: string): string };

/**
 * auth identifies the user; sign has the user sign a text (docs/api.md, "Signing and the phone channel");
 * payment has the user approve a card payment or a transfer they see in the app (docs/api.md, "Payment").
 */
export type EidOperation = 'auth' | 'sign' | 'payment' | 'idcard';
/**
 * app: a QR or an autostart on a device; phone: the user is on a call with the RP, no QR; counter: a
 * digital ID card scanned at a counter (docs/idcard.md), whose session is finished when it is made.
 */
export type EidChannel = 'app' | 'phone' | 'counter';

export const EID_OPERATIONS: readonly EidOperation[] = ['auth', 'sign', 'payment'];
export const EID_CHANNELS: readonly EidChannel[] = ['app', 'phone'];

export interface StartOrderRequest {
  environment: ApiKeyEnvironment;
  operation: EidOperation;
  channel: EidChannel;
  /** app channel only: the end user's device address. */
  endUserIp?: string;
  /** Plain text shown in the app (the provider encodes it as its protocol wants); required for sign. */
  userVisibleData?: string;
  userVisibleDataFormat?: 'plaintext' | 'simpleMarkdownV1';
  /** sign only: base64 given by the RP, signed but not shown. */
  userNonVisibleData?: string;
  requirement?: Record<string, unknown>;
  /** phone channel only: who the provider asks to confirm the call, and who started the call. */
  personalNumber?: string;
  callInitiator?: 'user' | 'RP';
  /**
   * The start body's provider options (provider-start-options.dto.ts), shape-checked by the request
   * pipe; the provider checks their values and leaves other providers' options unread.
   */
  options?: Readonly<Record<string, unknown>>;
  /** Where the e-ID app sends the user back after an autostart (same-device) order. */
  returnUrl?: string;
  /** payment only: what the app shows the user to approve, and the RP's own view of the risk. */
  userVisibleTransaction?: UserVisibleTransaction;
  riskFlags?: string[];
  /** The device the person uses, for the provider's risk assessment (at most one of the two). */
  web?: WebDevice;
  app?: AppDevice;
}

/** A payment as the e-ID app shows it (docs/api.md, "Payment"). */
export interface UserVisibleTransaction {
  transactionType: 'card' | 'npa';
  recipient: { name: string };
  /** card only: the amount with a comma and two decimals ("1000,00") and an ISO 4217 currency. */
  money?: { amount: string; currency: string };
  riskWarning?: string;
}

/** A browser the person started from (docs/api.md, "Device data"). */
export interface WebDevice {
  referringDomain?: string;
  userAgent?: string;
  deviceIdentifier?: string;
}

/** A native app the person started from (docs/api.md, "Device data"). */
export interface AppDevice {
  appIdentifier?: string;
  deviceOS?: string;
  deviceModelName?: string;
  deviceIdentifier?: string;
}

/** The provider's assessment of an order's risk, lowest first (docs/api.md, "Risk"). */
export const RISK_LEVELS = ['low', 'moderate', 'high'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export interface OrderReference {
  environment: ApiKeyEnvironment;
  orderRef: string;
}

export interface StartedOrder {
  /** BankID orderRef, Freja authRef. */
  orderRef: string;
  /** When the provider created the order: the QR clock starts here (BankID: the auth response time). */
  orderTime: Date;
  /** For an animated QR (BankID, app channel). Never sent to a browser. */
  qr?: { startToken: string; startSecret: string };
  autoStartToken?: string;
  /**
   * The link that opens the e-ID app on the person's own device (BankID's universal link, the
   * simulator's own app page); absent where the provider has no same-device start (docs/same-device.md).
   */
  launchUrl?: string;
}

export type CollectStatus = 'pending' | 'complete' | 'failed';

/**
 * The person: `personalNumber` is a Swedish personal number (BankID, Freja); other national
 * identifiers are `nationalId` with the ISO 3166-1 alpha-2 `country` that issued them.
 */
export type IdentifiedUser = {
  personalNumber?: string;
  nationalId?: string;
  name: string;
  givenName: string;
  surname: string;
  /** ISO 8601 date, where the provider gives it. */
  birthdate?: string;
  /** A wallet's age attestation: its disclosed `age_over_NN` claims by NN (docs/age-verification.md). */
  ageOver?: Readonly<Record<string, boolean>>;
  /** Whole years, where the provider gives it (the ID card's holder). */
  age?: number;
  country?: string;
  /**
   * A business identity an upstream delivers (an employee's company, a company signatory), under the
   * claim names its entry configures (docs/upstream-oidc.md, "Business identities").
   */
  business?: Readonly<Record<string, BusinessClaimValue>>;
};

export type BusinessClaimValue = string | number | boolean;

export interface CompletedIdentity {
  user: IdentifiedUser;
  device?: { ipAddress?: string; uhi?: string };
  /** The provider's risk assessment of the order, when it gives one; a key's maxRisk is held against it. */
  risk?: RiskLevel;
  /** The provider's evidence, as it gives it; its EvidenceProfile says what is kept. */
  evidence?: Record<string, unknown>;
  /** An ID card session's verification and the holder's authentication (docs/idcard.md). */
  idCard?: Pick<VerifiedIdCard, 'verification' | 'authentication'>;
}

/**
 * The pending hint code of an order whose provider asked the service to poll it more slowly (an
 * upstream's CIBA `slow_down`, docs/upstream-oidc.md, "CIBA"); the OpenID front passes it on.
 */
export const SLOW_DOWN_HINT = 'slowDown';

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

/** The facts of a session its evidence is checked against. */
export interface EvidenceSession {
  id: string;
  provider: string;
  environment: ApiKeyEnvironment;
  operation: EidOperation;
  /** The provider's reference of the order that completed. */
  orderRef: string;
  /** Base64, as sent to the order. */
  userVisibleData?: string;
  userNonVisibleData?: string;
}

/** What the completion reports, which the evidence must be of (docs/evidence.md). */
export interface EvidenceCompletion {
  /** user.personalNumber of the completion. */
  personalNumber?: string;
  /** When the session completed. */
  at: Date;
}

/**
 * What a provider keeps of a completion's evidence and how the service checks it (docs/evidence.md,
 * docs/providers.md). The kept members are stored encrypted and purged with the personal data.
 */
export interface EvidenceProfile {
  /** The members of the provider's evidence worth keeping; anything else it sent is dropped. */
  keep(provided: Record<string, unknown>): Record<string, unknown>;
  /** Kept members too raw for poll answers and webhooks (signatures, OCSP responses): only the evidence route shows them. */
  readonly rawMembers: readonly string[];
  /** The service's own check of what was kept; undefined when there is nothing to check. Never throws. */
  verify(
    kept: Record<string, unknown>,
    session: EvidenceSession,
    completion: EvidenceCompletion,
  ): Promise<EvidenceVerification | undefined>;
  /** Base64 of the bytes the result token's `evidenceSha256` binds (the provider's signature); undefined when none. */
  sealed(kept: Record<string, unknown>): string | undefined;
}
