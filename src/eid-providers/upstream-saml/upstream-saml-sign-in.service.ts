import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import { STATUS } from '../../saml/saml-protocol.js';
import { SamlXmlError } from '../../saml/saml-xml.js';
import { completionAad, returnUrlAad, secretsAad } from '../upstream-oidc/upstream-order-encryption.js';
import { UpstreamOrderStore } from '../upstream-oidc/upstream-order.store.js';
import type { CompletedIdentity } from '../eid-provider.js';
import { authnRequestUrl } from './upstream-saml-request.js';
import { checkLoginResponse, failedHintCode, receiveResponse, type ReceivedResponse } from './upstream-saml-response.js';
import { upstreamSamlEntities, type UpstreamSamlEntities } from './upstream-saml-entities.js';
import { upstreamSamlConfig, type UpstreamSamlModuleConfig } from './upstream-saml.config.js';
import type { UpstreamSamlConfig } from './upstream-saml.env.js';

/** What the person's browser is shown after the ACS. */
export type AcsOutcome = { kind: 'invalid' } | { kind: 'done'; status: 'complete' | 'failed'; country: string; returnUrl?: string };

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

interface Upstream {
  config: UpstreamSamlConfig;
  entities: UpstreamSamlEntities;
}

/** The browser's round trip through an upstream SAML IdP (docs/saml.md, "Upstream SAML e-IDs"). */
@Injectable()
export class UpstreamSamlSignIn {
  private readonly logger = new Logger(UpstreamSamlSignIn.name);
  private readonly byName: Map<string, Upstream>;

  constructor(
    @Inject(upstreamSamlConfig.KEY) config: UpstreamSamlModuleConfig,
    @Inject(serverConfig.KEY) server: ServerConfig,
    private readonly orders: UpstreamOrderStore,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
  ) {
    this.byName = new Map(
      config.upstreams.map((upstream) => [
        upstream.name,
        { config: upstream, entities: upstreamSamlEntities(upstream, server.publicBaseUrl) },
      ]),
    );
  }

  get upstreams(): UpstreamSamlConfig[] {
    return [...this.byName.values()].map((u) => u.config);
  }

  /** Our SP metadata for the IdP to import; undefined: no such upstream. */
  metadata(upstreamName: string): string | undefined {
    return this.byName.get(upstreamName)?.entities.sp.getMetadata();
  }

  /**
   * The signed AuthnRequest's URL for a pending order at its own upstream; its ID, hashed, is what the
   * Response's InResponseTo must name, once. Null: no such order. A reopened link replaces the ID.
   */
  async authnRequestUrl(upstreamName: string, orderRef: string): Promise<string | null> {
    const upstream = this.byName.get(upstreamName);
    const order = upstream && (await this.orders.findByRef(orderRef));
    if (!upstream || !order || order.upstream !== upstreamName || (order.status !== 'created' && order.status !== 'started')) return null;
    const { requestId, url } = authnRequestUrl(upstream.config, upstream.entities, this.clock.now());
    const secretsEnc = this.cipher.encryptJson({ requestId }, secretsAad(orderRef));
    return (await this.orders.begin(orderRef, sha256(requestId), secretsEnc)) ? url : null;
  }

  /**
   * The IdP's Response at this upstream's ACS: its InResponseTo claims the order once (a replay, an
   * unsolicited Response or another upstream's finds none); then samlify checks the signature and our
   * checks the rest. A refusal fails the session; it never logs in.
   */
  async acs(upstreamName: string, encoded: unknown): Promise<AcsOutcome> {
    const upstream = this.byName.get(upstreamName);
    if (!upstream) return { kind: 'invalid' };
    let received: ReceivedResponse;
    try {
      received = receiveResponse(encoded);
    } catch (error) {
      this.logger.warn({ upstream: upstreamName, reason: (error as SamlXmlError).message }, 'The upstream SAML Response could not be read');
      return { kind: 'invalid' };
    }
    const order = received.inResponseTo ? await this.orders.takeByState(sha256(received.inResponseTo), upstreamName) : null;
    if (!order?.secretsEnc) {
      this.logger.warn({ upstream: upstreamName }, 'A SAML Response for no pending request (unsolicited, replayed or late)');
      return { kind: 'invalid' };
    }
    const { requestId } = this.cipher.decryptJson<{ requestId: string }>(order.secretsEnc, secretsAad(order.orderRef));
    const completion = await this.complete(upstream, received, encoded as string, requestId);
    await this.orders.finish(order.orderRef, {
      status: completion.identity ? 'complete' : 'failed',
      hintCode: completion.identity ? null : completion.hintCode,
      completionEnc: completion.identity ? this.cipher.encryptJson(completion.identity, completionAad(order.orderRef)) : null,
    });
    const returnUrl = order.returnUrlEnc ? this.cipher.decrypt(order.returnUrlEnc, returnUrlAad(order.orderRef)) : undefined;
    return { kind: 'done', status: completion.identity ? 'complete' : 'failed', country: upstream.config.country, returnUrl };
  }

  private async complete(
    { config, entities }: Upstream,
    received: ReceivedResponse,
    encoded: string,
    requestId: string,
  ): Promise<{ identity: CompletedIdentity; hintCode?: undefined } | { identity?: undefined; hintCode: string }> {
    if (received.status !== STATUS.success) {
      // The status codes only (URIs): a StatusMessage may quote the person.
      this.logger.warn(
        { upstream: config.name, status: received.status?.slice(0, 100), subStatus: received.subStatus?.slice(0, 100) },
        'The upstream answered with an error status',
      );
      return { hintCode: failedHintCode(received, config) };
    }
    try {
      const parsed = await entities.sp.parseLoginResponse(entities.idp, 'post', { body: { SAMLResponse: encoded } });
      const checked = checkLoginResponse(received, parsed, { upstream: config, entities, requestId, now: this.clock.now() });
      if (checked.ok) return { identity: checked.completion };
      this.logger.error({ upstream: config.name, refusal: checked.refusal }, 'The upstream SAML Response was refused');
    } catch (error) {
      // samlify's and xml-crypto's codes (FAILED_TO_VERIFY_SIGNATURE, ERR_SUBJECT_UNCONFIRMED, "invalid
      // signature"): the part before any colon, which would go on to quote the message.
      const message = String((error as Error)?.message ?? error)
        .split(':')[0]
        .slice(0, 80);
      this.logger.error({ upstream: config.name, refusal: 'verification', reason: message }, 'The upstream SAML Response was refused');
    }
    return { hintCode: 'providerError' };
  }
}
