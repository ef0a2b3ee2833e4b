import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { sendHook } from '../../common/http/sync-hooks.js';
import { oauthErrorShape } from './oauth-error-shape.js';

/** Registers the /oidc error shape on Fastify (docs/oidc.md, "Errors"). */
@Injectable()
export class OidcHooks implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    // The command line builds an application context without HTTP.
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    fastify.addHook('onSend', sendHook(oauthErrorShape));
  }
}
