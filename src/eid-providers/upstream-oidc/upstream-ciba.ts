import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import * as client from 'openid-client';
import { ValidationProblemException } from '../../common/problem-details/validation-problem.exception.js';
import { SLOW_DOWN_HINT, type CollectResult, type StartOrderRequest, type StartedOrder } from '../eid-provider.js';
import type { UpstreamOidcDependencies } from './upstream-oidc-dependencies.js';
import type { UpstreamConfig } from './upstream-oidc.env.js';
import { identityOfTokens } from './upstream-identity.js';
import { completionAad, secretsAad } from './upstream-order-encryption.js';
import type { UpstreamOrder } from './upstream-order.entity.js';

const CIBA_GRANT_TYPE = 'urn:openid:params:grant-type:ciba';
// CIBA Core 7.3: without an interval the client waits 5 s; slow_down adds 5 s to it (CIBA Core 11, RFC 8628 3.5).
const DEFAULT_INTERVAL_S = 5;
const SLOW_DOWN_STEP_S = 5;
// A login_hint an upstream is given: its national identifier, letters, digits, "+" and "-" only (a Finnish HETU has both).
const IDENTIFIER = /^(?:sub:ssn:)?([0-9A-Za-z+-]{4,40})$/;

/** What a backchannel order keeps, encrypted: the upstream's auth_req_id and its polling pace. */
export interface BackchannelState {
  authReqId: string;
  intervalS: number;
  /** Before this (ms) a collect does not ask the upstream: it would answer slow_down. */
  nextPollAt: number;
}

// openid-client's codes for an upstream not reached or not answering as OAuth says: worth another collect.
const TRANSPORT_CODES = new Set(['OAUTH_TIMEOUT', 'OAUTH_ABORT', 'OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON']);
// An upstream's error code as it may be repeated: a short word, nothing else it sent.
const errorCode = (error: client.ResponseBodyError) => error.error.replace(/[^\w.-]/g, '').slice(0, 64);

const isBackchannel = (secrets: object): secrets is BackchannelState => 'authReqId' in secrets;

/**
 * CIBA towards an upstream that offers it (docs/upstream-oidc.md, "CIBA"): the service's backchannel
 * request is passed on in poll mode, and each collect that is due asks the upstream's token endpoint
 * once. Its authorization_pending and slow_down keep the order pending (slow_down under its own hint
 * code, which the OpenID front passes on), access_denied and expired_token end it.
 */
export class UpstreamCiba {
  private readonly logger = new Logger(UpstreamCiba.name);

  constructor(
    private readonly upstream: UpstreamConfig,
    private readonly deps: UpstreamOidcDependencies,
  ) {}

  /** Whether the upstream's discovered metadata offers CIBA in poll mode. */
  offered(): boolean {
    const metadata = this.deps.connections.metadataOf(this.upstream);
    const modes = metadata?.backchannel_token_delivery_modes_supported;
    return Boolean(metadata?.backchannel_authentication_endpoint) && (!Array.isArray(modes) || modes.includes('poll'));
  }

  /** The person a login_hint names: the identifier passed on, and the key the completion's person must have. */
  loginHint(hint: string): { identifier: string; personKey: string } | undefined {
    const identifier = IDENTIFIER.exec(hint)?.[1];
    if (!identifier) return undefined;
    // As oidc-claims.ts personKeyOf reads the completion: the personal number, else the country's national identifier.
    return { identifier, personKey: this.upstream.claims.personalNumber ? identifier : `${this.upstream.country}\0${identifier}` };
  }

  async start(request: StartOrderRequest): Promise<StartedOrder> {
    const { config } = await this.deps.connections.get(this.upstream);
    if (!this.offered() || !request.personalNumber)
      throw new ValidationProblemException([{ pointer: '/personalNumber', detail: 'The upstream takes no backchannel request' }]);
    const parameters: Record<string, string> = {
      scope: this.upstream.scope,
      login_hint: request.personalNumber,
      ...(this.upstream.acrValues ? { acr_values: this.upstream.acrValues } : {}),
      ...(request.userVisibleData ? { binding_message: request.userVisibleData } : {}),
    };
    const started = await client.initiateBackchannelAuthentication(config, parameters).catch((error: unknown) => {
      // A refusal of the request itself (an unknown person, a binding message it does not take) is the request's fault.
      if (error instanceof client.ResponseBodyError)
        throw new ValidationProblemException([
          { pointer: '/personalNumber', detail: `The upstream refused the backchannel request (error: ${errorCode(error)})` },
        ]);
      throw error;
    });
    const orderRef = randomUUID();
    const createdAt = this.deps.clock.now();
    const intervalS = started.interval ?? DEFAULT_INTERVAL_S;
    const state: BackchannelState = { authReqId: started.auth_req_id, intervalS, nextPollAt: createdAt.getTime() + intervalS * 1000 };
    await this.deps.orders.insertBackchannel(
      { orderRef, upstream: this.upstream.name, environment: request.environment, returnUrlEnc: null, createdAt },
      this.deps.cipher.encryptJson(state, secretsAad(orderRef)),
    );
    return { orderRef, orderTime: createdAt };
  }

  /** The order's state; the upstream asked when its pace allows. Undefined: the order is a browser sign-in. */
  async collect(order: UpstreamOrder): Promise<CollectResult | undefined> {
    if (order.status !== 'started' || !order.secretsEnc) return undefined;
    const state = this.deps.cipher.decryptJson<object>(order.secretsEnc, secretsAad(order.orderRef));
    if (!isBackchannel(state)) return undefined;
    const now = this.deps.clock.nowMs();
    // Between two polls of the upstream the order is pending: its slow_down was said once.
    if (now < state.nextPollAt) return { status: 'pending', hintCode: 'outstandingTransaction' };
    const { config } = await this.deps.connections.get(this.upstream);
    try {
      const tokens = await client.genericGrantRequest(config, CIBA_GRANT_TYPE, { auth_req_id: state.authReqId });
      const identity = identityOfTokens(this.upstream, tokens, this.logger);
      return this.finish(
        order.orderRef,
        identity ? { status: 'complete', completion: identity } : { status: 'failed', hintCode: 'providerError' },
      );
    } catch (error) {
      if (error instanceof client.ClientError && !TRANSPORT_CODES.has(error.code ?? '')) {
        // An answer that fails openid-client's checks (a signature outside the JWKS, another audience):
        // its auth_req_id is used, so no later poll can do better.
        this.logger.error(
          { upstream: this.upstream.name, code: error.code },
          'The upstream answered a backchannel request with tokens that fail the checks',
        );
        return this.finish(order.orderRef, { status: 'failed', hintCode: 'providerError' });
      }
      // The upstream not reached, or answering otherwise than OAuth says: the session engine retries.
      if (!(error instanceof client.ResponseBodyError)) throw error;
      if (error.error === 'authorization_pending' || error.error === 'slow_down') {
        const slowDown = error.error === 'slow_down';
        const intervalS = state.intervalS + (slowDown ? SLOW_DOWN_STEP_S : 0);
        const hintCode = slowDown ? SLOW_DOWN_HINT : 'outstandingTransaction';
        const next: BackchannelState = { ...state, intervalS, nextPollAt: now + intervalS * 1000 };
        await this.deps.orders.pendingBackchannel(order.orderRef, hintCode, this.deps.cipher.encryptJson(next, secretsAad(order.orderRef)));
        return { status: 'pending', hintCode };
      }
      // A used auth_req_id: a collect that overlapped this one has the answer, or the request is gone
      // and the session's own expiry ends it. Never a failure the other collect's success would race.
      if (error.error === 'invalid_grant') return { status: 'pending', hintCode: 'outstandingTransaction' };
      // The upstream's error code only: its description may quote the person.
      this.logger.warn({ upstream: this.upstream.name, error: errorCode(error) }, 'The upstream ended a backchannel request');
      const hintCode =
        error.error === 'access_denied' ? 'userCancel' : error.error === 'expired_token' ? 'expiredTransaction' : 'providerError';
      return this.finish(order.orderRef, { status: 'failed', hintCode });
    }
  }

  /**
   * Ends the order, unless it has ended meanwhile (a cancel, or a collect that overlapped this one and
   * used the auth_req_id first): the order's stored end is the answer either way.
   */
  private async finish(orderRef: string, result: CollectResult): Promise<CollectResult> {
    await this.deps.orders.finish(orderRef, {
      status: result.status === 'complete' ? 'complete' : 'failed',
      hintCode: result.hintCode ?? null,
      completionEnc: result.completion ? this.deps.cipher.encryptJson(result.completion, completionAad(orderRef)) : null,
    });
    const stored = await this.deps.orders.findByRef(orderRef);
    if (stored?.status === 'complete' && stored.completionEnc)
      return { status: 'complete', completion: this.deps.cipher.decryptJson(stored.completionEnc, completionAad(orderRef)) };
    return { status: 'failed', hintCode: stored?.hintCode ?? result.hintCode ?? 'providerError' };
  }
}
