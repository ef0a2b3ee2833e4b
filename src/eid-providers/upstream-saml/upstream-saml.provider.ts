import { randomUUID, X509Certificate } from 'node:crypto';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import type { Clock } from '../../common/clock/clock.js';
import type { DataCipher } from '../../common/crypto/data-cipher.js';
import type { EvidenceProfile } from '../eid-provider.js';
import type {
  CollectResult,
  CompletedIdentity,
  EidChannel,
  EidOperation,
  EidProvider,
  OpenIdFace,
  OrderReference,
  ProviderReadiness,
  StartOrderRequest,
  StartedOrder,
} from '../eid-provider.js';
import { completionAad, returnUrlAad } from '../upstream-oidc/upstream-order-encryption.js';
import type { UpstreamOrderStore } from '../upstream-oidc/upstream-order.store.js';
import { upstreamUserMessages } from '../upstream-oidc/upstream-user-messages.js';
import { certificateStatus } from '../rp-certificate.check.js';
import type { UserMessageTable } from '../user-messages.js';
import { upstreamSamlEvidenceProfile } from './upstream-saml-evidence.js';
import type { UpstreamSamlConfig } from './upstream-saml.env.js';

/** What one upstream SAML adapter needs; the module builds one adapter per configured upstream. */
export interface UpstreamSamlDependencies {
  orders: UpstreamOrderStore;
  cipher: DataCipher;
  clock: Clock;
  publicBaseUrl: string;
}

/**
 * One upstream SAML IdP as an e-ID (docs/saml.md, "Upstream SAML e-IDs"): the session's launch link
 * sends the person to the IdP with a signed AuthnRequest, the ACS records the checked answer, and
 * collect reads it. Its sign-ins share the upstream OpenID providers' order table.
 */
export class UpstreamSamlProvider implements EidProvider {
  readonly kind = 'saml';
  readonly name: string;
  readonly messages: UserMessageTable;
  readonly evidence: EvidenceProfile;
  /** A static QR: the launch link, to open on a phone. */
  readonly qr = { kind: 'static', data: (orderRef: string) => this.launchUrl(orderRef) } as const;
  readonly openId?: OpenIdFace;
  private readonly spCertificate: X509Certificate;

  constructor(
    readonly upstream: UpstreamSamlConfig,
    private readonly deps: UpstreamSamlDependencies,
  ) {
    this.name = upstream.name;
    this.messages = upstreamUserMessages(upstream.displayName ?? upstream.name);
    this.evidence = upstreamSamlEvidenceProfile(upstream, deps.clock);
    this.openId = upstreamSamlOpenIdFace(upstream);
    this.spCertificate = new X509Certificate(upstream.spCertificate);
  }

  /** Only keys of the upstream's own environment: a live key never reaches a test IdP. */
  supports(environment: ApiKeyEnvironment): boolean {
    return environment === this.upstream.environment;
  }

  offers(operation: EidOperation, channel: EidChannel): boolean {
    return operation === 'auth' && channel === 'app';
  }

  async start(request: StartOrderRequest): Promise<StartedOrder> {
    const orderRef = randomUUID();
    const returnUrlEnc = request.returnUrl ? this.deps.cipher.encrypt(request.returnUrl, returnUrlAad(orderRef)) : null;
    const createdAt = this.deps.clock.now();
    await this.deps.orders.insert({ orderRef, upstream: this.name, environment: request.environment, returnUrlEnc, createdAt });
    return { orderRef, orderTime: createdAt, launchUrl: this.launchUrl(orderRef) };
  }

  async collect({ orderRef }: OrderReference): Promise<CollectResult> {
    const order = await this.deps.orders.findByRef(orderRef);
    if (!order) return { status: 'failed', hintCode: 'expiredTransaction' };
    if (order.status === 'created') return { status: 'pending', hintCode: 'outstandingTransaction' };
    if (order.status === 'started') return { status: 'pending', hintCode: 'started' };
    if (order.status === 'failed' || !order.completionEnc) return { status: 'failed', hintCode: order.hintCode ?? 'providerError' };
    return {
      status: 'complete',
      completion: this.deps.cipher.decryptJson<CompletedIdentity>(order.completionEnc, completionAad(orderRef)),
    };
  }

  async cancel({ orderRef }: OrderReference): Promise<void> {
    await this.deps.orders.cancel(orderRef);
  }

  async purgeOrdersCreatedBefore(createdBefore: Date): Promise<void> {
    await this.deps.orders.purgeCreatedBefore(this.name, createdBefore);
  }

  async forgetCompletion({ orderRef }: OrderReference): Promise<void> {
    await this.deps.orders.forgetCompletion(orderRef);
  }

  /**
   * Our SP certificate's time left, as a warning only (docs/saml.md): the IdP may refuse requests signed
   * by an expired one, but the other providers still serve.
   */
  readiness(): ProviderReadiness {
    const { state, expiresAt } = certificateStatus(this.upstream.environment, this.spCertificate, this.deps.clock.now());
    return {
      check: { spCertificate: state, expiresAt },
      warnings: state === 'valid' ? [] : [`The SP certificate of the SAML upstream ${this.name} is ${state} (${expiresAt}).`],
    };
  }

  private launchUrl(orderRef: string): string {
    return `${this.deps.publicBaseUrl}/upstream/${encodeURIComponent(this.name)}/login/${orderRef}`;
  }
}

/** On the fronts: its acr values on the OpenID front, its AuthnContextClassRefs on the SAML front, the browser sent on. */
function upstreamSamlOpenIdFace(upstream: UpstreamSamlConfig): OpenIdFace | undefined {
  if (!upstream.frontAcrValues) return undefined;
  return {
    displayName: upstream.displayName ?? upstream.name,
    ...(upstream.logo ? { logo: upstream.logo } : {}),
    acrValues: upstream.frontAcrValues.map((acr) => ({ acr, device: 'either' as const })),
    amr: () => [],
    redirectsBrowser: true,
    ...(upstream.samlAuthnContexts ? { samlAuthnContexts: upstream.samlAuthnContexts } : {}),
  };
}
