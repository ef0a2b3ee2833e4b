import { BadRequestException, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FAILED_ATTEMPT_CODES, IpBlocksService } from './ip-blocks/ip-blocks.service.js';
import type { AttackCategory } from './input-guard/attack-patterns.js';
import { inspectRequest } from './input-guard/input-inspector.js';

const CATEGORY_TEXT: Record<AttackCategory, string> = {
  sql_injection: 'SQL injection',
  cross_site_scripting: 'cross-site scripting',
  path_traversal: 'path traversal',
};

/**
 * The checks that come before authentication (docs/protection.md), as Fastify hooks so that they run before
 * any Nest guard, pipe or handler: the IP block on arrival (before the body is even read), then the
 * input guard once the JSON body is parsed. Their errors reach the ProblemDetailsFilter through
 * Nest's Fastify error handler, like every other error.
 *
 * Failed attempts are counted here too, in one place, from the problem code a response carries: a
 * feature that answers invalid_token or invalid_validation_code needs to know nothing about IP blocks.
 * onSend is awaited before the response leaves, so the 10th failure blocks the 11th request.
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
    fastify.addHook('onRequest', async (request: FastifyRequest) => this.ipBlocks.assertNotBlocked(request.ip));
    fastify.addHook('preValidation', async (request: FastifyRequest) => {
      const finding = inspectRequest({ url: request.url, body: request.body });
      if (finding) {
        throw new BadRequestException(`The input guard refused the request: its ${finding.part} looks like ${CATEGORY_TEXT[finding.category]}.`);
      }
    });
    fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (reply.statusCode === 401 && FAILED_ATTEMPT_CODES.has(problemCodeOf(reply, payload) ?? '')) {
        await this.ipBlocks.recordFailure(request.ip);
      }
      return payload;
    });
  }
}

function problemCodeOf(reply: FastifyReply, payload: unknown): string | undefined {
  if (typeof payload !== 'string' || !String(reply.getHeader('content-type')).startsWith('application/problem+json')) return undefined;
  try {
    return (JSON.parse(payload) as { code?: string }).code;
  } catch {
    return undefined;
  }
}
