import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { requestHook, sendHook } from '../common/http/sync-hooks.js';
import { isFailedAttempt } from './ip-blocks/failed-attempt.js';
import { IpBlocksService } from './ip-blocks/ip-blocks.service.js';
import { inertBodyFieldsOf } from './input-guard/inert-body-fields.js';
import { assertCleanInput } from './input-guard/input-guard-refusal.js';

/**
 * The checks that come before authentication (docs/protection.md), as Fastify hooks so that they run before
 * any Nest guard, pipe or handler: the IP block on arrival (before the body is even read), then the
 * input guard once the JSON body is parsed. Their errors reach the ProblemDetailsFilter through
 * Nest's Fastify error handler, like every other error.
 *
 * Failed attempts are counted here too, in one place, for requests the AuthGuard marked (only a
 * credential that is a guess counts: docs/protection.md). onSend is awaited before the response
 * leaves, so the 10th failure blocks the 11th request.
 */
@Injectable()
export class ProtectionHooks implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly ipBlocks: IpBlocksService,
  ) {}

  onModuleInit(): void {
    // The command line builds an application context without HTTP.
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    fastify.addHook(
      'onRequest',
      requestHook((request) => this.ipBlocks.assertNotBlocked(request.ip)),
    );
    fastify.addHook(
      'preValidation',
      requestHook((request) => assertCleanInput({ url: request.url, body: request.body, inertBodyFields: inertBodyFieldsOf(request) })),
    );
    fastify.addHook(
      'onSend',
      sendHook((request, _reply, payload) =>
        isFailedAttempt(request) ? this.ipBlocks.recordFailure(request.ip).then(() => payload) : payload,
      ),
    );
  }
}
