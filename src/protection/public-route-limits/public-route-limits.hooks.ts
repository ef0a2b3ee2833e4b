import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { requestHook } from '../../common/http/sync-hooks.js';
import { Clock } from '../../common/clock/clock.js';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import { clientAddressOf } from '../client-address.js';
import { PerIpWindow } from './per-ip-window.js';

// The anonymous routes anyone may call in a loop: the simulator's scan, phone answers, app and wallet
// pages, the wallet's request and response routes, the kiosk, the browser's side of the login fronts
// (the OpenID authorization endpoint, login page and logout; the upstream links and callback), and the
// transparency log's proofs. The OpenID back channel (token, userinfo, PAR) authenticates its client
// and often comes from one RP server's address: not limited here.
const LIMITED =
  /^\/(?:api\/v1\/simulator\/(?:scan|phone)|simulator\/(?:app|wallet)|kiosk\/|openid4vp\/|oidc\/(?:auth|interaction|session\/end)\b|upstream\/|transparency\/)/;
// What starts an e-ID order for an anonymous browser, or sends it to an upstream (an OpenID provider's
// link, a SAML IdP's): a tighter count of its own (docs/oidc.md, "Limits").
const LOGIN_START = /^\/(?:oidc\/interaction\/[^/?#]+\/start|upstream\/[^/?#]+\/(?:go|login\/[^/?#]+))(?:[?#]|$)/;

/** Per-client-address limits on the anonymous simulator and kiosk routes (docs/protection.md). */
@Injectable()
export class PublicRouteLimitsHooks implements OnModuleInit {
  private readonly window: PerIpWindow;
  private readonly starts: PerIpWindow;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly clock: Clock,
    @Inject(serverConfig.KEY) server: ServerConfig,
  ) {
    this.window = new PerIpWindow(server.publicRouteLimitPerMinute);
    this.starts = new PerIpWindow(server.loginStartLimitPerMinute);
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    fastify.addHook(
      'onRequest',
      requestHook((request) => {
        if (!LIMITED.test(request.url)) return;
        const address = clientAddressOf(request.ip);
        const now = this.clock.nowMs();
        const retryAfter = this.window.take(address, now) ?? (LOGIN_START.test(request.url) ? this.starts.take(address, now) : null);
        if (retryAfter !== null) {
          throw new DomainException('rate_limit_exceeded', 'Too many requests from this address to this route.', {
            headers: { 'retry-after': String(retryAfter) },
          });
        }
      }),
    );
  }
}
