import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import * as client from 'openid-client';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import type { CompletedIdentity } from '../eid-provider.js';
import { UpstreamConnections, type UpstreamConnection } from './upstream-connections.js';
import { identityOfTokens } from './upstream-identity.js';
import { completionAad, returnUrlAad, secretsAad } from './upstream-order-encryption.js';
import type { UpstreamOrder } from './upstream-order.entity.js';
import { UpstreamOrderStore } from './upstream-order.store.js';

/** What the person's browser is shown after the callback. */
export type CallbackOutcome = { kind: 'invalid' } | { kind: 'done'; status: 'complete' | 'failed'; country: string; returnUrl?: string };

interface PendingSecrets {
  codeVerifier: string;
  nonce: string;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** The browser's round trip through an upstream (docs/upstream-oidc.md, "The sign-in"). */
@Injectable()
export class UpstreamSignIn {
  private readonly logger = new Logger(UpstreamSignIn.name);

  constructor(
    private readonly connections: UpstreamConnections,
    private readonly orders: UpstreamOrderStore,
    private readonly cipher: DataCipher,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
  ) {}

  /** One callback per upstream (RFC 9700 4.4.2.2, mix-up): an answer counts only at the callback of the upstream asked. */
  redirectUriOf(upstreamName: string): string {
    return `${this.server.publicBaseUrl}/upstream/${encodeURIComponent(upstreamName)}/callback`;
  }

  /**
   * The upstream's authorization URL for a pending order: PKCE S256, state, nonce, PAR and JAR as
   * configured, and the person's languages when known. Null: no such order.
   */
  async authorizationUrl(orderRef: string, uiLocales?: string): Promise<URL | null> {
    const order = await this.orders.findByRef(orderRef);
    const upstream = order && this.connections.upstreams.find((u) => u.name === order.upstream);
    if (!order || !upstream || (order.status !== 'created' && order.status !== 'started')) return null;
    const connection = await this.connections.get(upstream);
    const secrets: PendingSecrets = { codeVerifier: client.randomPKCECodeVerifier(), nonce: client.randomNonce() };
    const state = client.randomState();
    const parameters: Record<string, string> = {
      redirect_uri: this.redirectUriOf(upstream.name),
      scope: upstream.scope,
      code_challenge: await client.calculatePKCECodeChallenge(secrets.codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce: secrets.nonce,
      ...(upstream.acrValues ? { acr_values: upstream.acrValues } : {}),
      ...(uiLocales ? { ui_locales: uiLocales } : {}),
    };
    if (!(await this.orders.begin(orderRef, sha256(state), this.cipher.encryptJson(secrets, secretsAad(orderRef))))) return null;
    return this.buildUrl(connection, parameters);
  }

  /** Handles the upstream's answer at its callback; a wrong or used state, or another upstream's callback, changes nothing. */
  async callback(upstreamName: string, query: URLSearchParams): Promise<CallbackOutcome> {
    const upstream = this.connections.upstreams.find((u) => u.name === upstreamName);
    const state = query.get('state');
    const order = upstream && state ? await this.orders.takeByState(sha256(state), upstream.name) : null;
    if (!order || !upstream || !order.secretsEnc) return { kind: 'invalid' };
    const completion = await this.complete(order, query, state!);
    const hintCode = completion ? null : query.get('error') === 'access_denied' ? 'userCancel' : 'providerError';
    await this.orders.finish(order.orderRef, {
      status: completion ? 'complete' : 'failed',
      hintCode,
      completionEnc: completion ? this.cipher.encryptJson(completion, completionAad(order.orderRef)) : null,
    });
    const returnUrl = order.returnUrlEnc ? this.cipher.decrypt(order.returnUrlEnc, returnUrlAad(order.orderRef)) : undefined;
    return { kind: 'done', status: completion ? 'complete' : 'failed', country: upstream.country, returnUrl };
  }

  private async complete(order: UpstreamOrder, query: URLSearchParams, state: string): Promise<CompletedIdentity | null> {
    const upstream = this.connections.upstreams.find((u) => u.name === order.upstream)!;
    if (query.has('error')) {
      // The upstream's error code only: its description may quote the person.
      this.logger.warn({ upstream: upstream.name, error: query.get('error')?.slice(0, 64) }, 'The upstream answered with an error');
      return null;
    }
    const secrets = this.cipher.decryptJson<PendingSecrets>(order.secretsEnc!, secretsAad(order.orderRef));
    try {
      const { config } = await this.connections.get(upstream);
      const currentUrl = new URL(`${this.redirectUriOf(upstream.name)}?${query.toString()}`);
      const tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: secrets.codeVerifier,
        expectedNonce: secrets.nonce,
        expectedState: state,
        idTokenExpected: true,
      });
      return identityOfTokens(upstream, tokens, this.logger);
    } catch (error) {
      const { name, code, message } = error as { name?: string; code?: string; message?: string };
      this.logger.error({ upstream: upstream.name, err: { name, code, message } }, 'The upstream sign-in could not be completed');
      return null;
    }
  }

  private async buildUrl(connection: UpstreamConnection, parameters: Record<string, string>): Promise<URL> {
    const { config, upstream, signing } = connection;
    const pushed = config.serverMetadata().pushed_authorization_request_endpoint !== undefined;
    // JAR (RFC 9101) signs the request; PAR (RFC 9126) keeps it off the browser's address bar.
    const request = upstream.requestObject
      ? (await client.buildAuthorizationUrlWithJAR(config, parameters, { key: signing!.key, kid: signing!.kid })).searchParams
      : parameters;
    return pushed ? client.buildAuthorizationUrlWithPAR(config, request) : client.buildAuthorizationUrl(config, request);
  }
}
