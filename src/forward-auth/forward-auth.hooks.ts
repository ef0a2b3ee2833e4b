import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendHook } from '../common/http/sync-hooks.js';
import { redactUrl } from '../common/logging/redact-url.js';
import { ForwardAuthMetrics } from './forward-auth.metrics.js';
import { ForwardAuthService } from './forward-auth.service.js';
import { FORWARD_AUTH_PATH, type OriginalRequest } from './original-request.js';

const isForwardAuth = (url: string): boolean =>
  url.startsWith(FORWARD_AUTH_PATH) && (url.length === FORWARD_AUTH_PATH.length || '/?'.includes(url[FORWARD_AUTH_PATH.length]));

/**
 * Every answer of /forward-auth, whoever wrote it (the controller, the IP-block hook, the problem-details
 * filter): counted by outcome and route template, logged with the original request (its `key=`
 * redacted), and a refusal made to speak of the client's path (`instance`) and, for nginx, repeated in
 * `X-Eidgw-Problem`, since auth_request drops a subrequest's body (docs/forward-auth.md).
 */
@Injectable()
export class ForwardAuthHooks implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly service: ForwardAuthService,
    private readonly metrics: ForwardAuthMetrics,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    fastify.addHook(
      'onSend',
      sendHook((request, reply, payload) => (isForwardAuth(request.url) ? this.onAnswer(request, reply, payload) : payload)),
    );
  }

  private onAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
    let original: OriginalRequest | null = null;
    try {
      original = this.service.originalOf(request);
    } catch {
      // A request that names no original request; answered 400 already.
    }
    const route = original ? this.service.routeOf(original) : null;
    if (original) request.logExtra = { original: { method: original.method, url: redactUrl(original.uri), host: original.host } };

    if (reply.statusCode < 400) {
      this.metrics.count('allowed', route?.method ?? '-', route?.template ?? 'unlisted');
      return payload;
    }
    const problem = problemOf(payload);
    const code = typeof problem?.code === 'string' ? problem.code : null;
    const outcome = code ?? (reply.statusCode === 400 ? (original ? 'input_guard' : 'bad_request') : `status_${reply.statusCode}`);
    this.metrics.count(outcome, route?.method ?? '-', route?.template ?? 'unlisted');
    if (!problem || !original) return payload;
    problem.instance = original.path;
    const body = JSON.stringify(problem);
    if (original.nginx) void reply.header('x-eidgw-problem', asciiJson(body));
    return body;
  }
}

/** The problem document of a refusal's body (every refusal is one, docs/api.md); null for anything else. */
function problemOf(payload: unknown): Record<string, unknown> | null {
  if (typeof payload !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(payload);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** JSON with every character outside printable ASCII escaped, so that it is a valid header value and still the same JSON. */
function asciiJson(json: string): string {
  return json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
