import { randomUUID } from 'node:crypto';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import type {
  CibaFace,
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
  EvidenceProfile,
} from '../eid-provider.js';
import type { UserMessageTable } from '../user-messages.js';
import { UpstreamCiba } from './upstream-ciba.js';
import type { UpstreamOidcDependencies } from './upstream-oidc-dependencies.js';
import { upstreamEvidenceProfile } from './upstream-evidence.js';
import type { UpstreamConfig } from './upstream-oidc.env.js';
import { completionAad, returnUrlAad } from './upstream-order-encryption.js';
import { upstreamUserMessages } from './upstream-user-messages.js';

/** What one upstream adapter needs; the module builds one adapter per configured upstream. */
/**
 * One upstream OpenID provider as an e-ID (docs/upstream-oidc.md): the session's launch link sends
 * the person to the upstream, the callback records the answer, and collect reads it.
 */
export class UpstreamOidcProvider implements EidProvider {
  readonly kind = 'oidc';
  readonly name: string;
  readonly messages: UserMessageTable;
  readonly evidence: EvidenceProfile;
  /** A static QR: the launch link, to open on a phone (as Freja's app link). */
  readonly qr = { kind: 'static', data: (orderRef: string) => this.launchUrl(orderRef) } as const;
  readonly openId?: OpenIdFace;
  private readonly ciba: UpstreamCiba;

  constructor(
    readonly upstream: UpstreamConfig,
    private readonly deps: UpstreamOidcDependencies,
  ) {
    this.name = upstream.name;
    this.messages = upstreamUserMessages(upstream.displayName ?? upstream.name);
    const jwksUri = async () => {
      const { config } = await deps.connections.get(upstream);
      const uri = config.serverMetadata().jwks_uri;
      if (!uri) throw new Error('The upstream publishes no jwks_uri');
      return uri;
    };
    this.evidence = upstreamEvidenceProfile(upstream, jwksUri, deps.clock);
    this.ciba = new UpstreamCiba(upstream, deps);
    this.openId = upstream.frontAcrValues && upstreamOpenIdFace(upstream, upstream.frontAcrValues, this.ciba);
  }

  /** Only keys of the upstream's own environment: a live key never reaches a test upstream. */
  supports(environment: ApiKeyEnvironment): boolean {
    return environment === this.upstream.environment;
  }

  /** auth in the browser; on the phone channel, CIBA when the upstream offers it (docs/upstream-oidc.md, "CIBA"). */
  offers(operation: EidOperation, channel: EidChannel): boolean {
    return operation === 'auth' && (channel === 'app' || this.ciba.offered());
  }

  async start(request: StartOrderRequest): Promise<StartedOrder> {
    if (request.channel === 'phone') return this.ciba.start(request);
    // An upstream that cannot be discovered answers 502 provider_unavailable now, not at the link.
    await this.deps.connections.get(this.upstream);
    const orderRef = randomUUID();
    const returnUrlEnc = request.returnUrl ? this.deps.cipher.encrypt(request.returnUrl, returnUrlAad(orderRef)) : null;
    const createdAt = this.deps.clock.now();
    await this.deps.orders.insert({ orderRef, upstream: this.name, environment: request.environment, returnUrlEnc, createdAt });
    return { orderRef, orderTime: createdAt, launchUrl: this.launchUrl(orderRef) };
  }

  async collect({ orderRef }: OrderReference): Promise<CollectResult> {
    const order = await this.deps.orders.findByRef(orderRef);
    if (!order) return { status: 'failed', hintCode: 'expiredTransaction' };
    const backchannel = await this.ciba.collect(order);
    if (backchannel) return backchannel;
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

  readiness(): ProviderReadiness {
    const status = this.deps.connections.status(this.upstream);
    return {
      check: status,
      warnings:
        status.discovery === 'ok'
          ? []
          : [`The upstream ${this.name}'s OpenID metadata (${this.upstream.issuer}) cannot be fetched: its sessions answer 502.`],
    };
  }

  private launchUrl(orderRef: string): string {
    return `${this.deps.publicBaseUrl}/upstream/${orderRef}/go`;
  }
}

/**
 * On the OpenID front (docs/upstream-oidc.md, "Through the OpenID front"): the configured acr values,
 * the upstream's own amr, and the login page's browser sent to the upstream and back.
 */
function upstreamOpenIdFace(upstream: UpstreamConfig, acrValues: readonly string[], ciba: UpstreamCiba): OpenIdFace {
  const cibaFace: CibaFace = { acr: acrValues[0], channel: 'phone', loginHint: (hint) => ciba.loginHint(hint) };
  return {
    // CIBA by its first acr value, while the upstream's discovered metadata offers it (docs/upstream-oidc.md, "CIBA").
    get ciba() {
      return ciba.offered() ? cibaFace : undefined;
    },
    displayName: upstream.displayName ?? upstream.name,
    ...(upstream.logo ? { logo: upstream.logo } : {}),
    acrValues: acrValues.map((acr) => ({ acr, device: 'either' as const })),
    amr: (evidence) => {
      const amr = evidence?.amr;
      return Array.isArray(amr) ? amr.filter((method): method is string => typeof method === 'string') : [];
    },
    redirectsBrowser: true,
    businessClaims: Object.keys(upstream.businessClaims ?? {}),
  };
}
