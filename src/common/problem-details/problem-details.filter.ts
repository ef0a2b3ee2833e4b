import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../../database/database-unavailable.js';
import { DomainException } from './domain.exception.js';
import { errorForLog } from '../logging/error-for-log.js';
import { ERROR_CODES, problemType, type ErrorCode } from './error-codes.js';
import { sendProblem, type ProblemDocument } from './problem-document.js';
import { ValidationProblemException } from './validation-problem.exception.js';

/** Codes for framework errors that carry only an HTTP status. */
const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/** What a 503 asks the client to wait: about how long a restarting PostgreSQL takes to accept connections. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The one place where any error becomes an RFC 9457 answer. */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger(ProblemDetailsFilter.name);
  private unavailableLoggedAt = 0;
  private unavailableUnlogged = 0;

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { problem, headers = {} } = this.toProblem(exception, request);
    // RFC 9110 §15.5.2: a 401 must say how to authenticate.
    if (problem.status === 401) headers['www-authenticate'] ??= challengeFor(problem.code);
    sendProblem(reply, problem, headers);
  }

  toProblem(exception: unknown, request: FastifyRequest): { problem: ProblemDocument; headers?: Record<string, string> } {
    const instance = request.url.split('?')[0];
    if (exception instanceof DomainException) {
      const { status, title } = ERROR_CODES[exception.code];
      return {
        problem: {
          type: problemType(exception.code),
          title,
          status: exception.options.status ?? status,
          detail: exception.detail,
          instance,
          code: exception.code,
          ...exception.options.extensions,
        },
        headers: exception.options.headers,
      };
    }
    if (exception instanceof ValidationProblemException) {
      return {
        problem: {
          type: problemType('validation_failed'),
          title: ERROR_CODES.validation_failed.title,
          status: ERROR_CODES.validation_failed.status,
          detail: 'The request failed validation; see errors.',
          instance,
          code: 'validation_failed',
          errors: exception.errors,
        },
      };
    }
    const status = statusOf(exception);
    if (status !== undefined && (status < 500 || exception instanceof HttpException)) {
      const code = CODE_BY_STATUS[status];
      return {
        problem: {
          type: code ? problemType(code) : 'about:blank',
          title: code ? ERROR_CODES[code].title : (STATUS_CODES[status] ?? 'Error'),
          status,
          detail: clientMessage(exception, status),
          instance,
          ...(code ? { code } : {}),
        },
      };
    }
    // The database is away (docs/reliability.md): the client may retry soon; not a bug, so no error id.
    if (isDatabaseUnavailable(exception)) {
      this.logUnavailable(exception, request);
      return {
        problem: {
          type: problemType('service_unavailable'),
          title: ERROR_CODES.service_unavailable.title,
          status: 503,
          detail: 'The service cannot reach its database; retry shortly.',
          instance,
          code: 'service_unavailable',
        },
        headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
      };
    }
    // Anything else is our fault: hide the cause from the client, keep it in the log under an id.
    const errorId = randomUUID();
    this.logger.error({ err: errorForLog(exception), errorId, reqId: request.id }, 'Unhandled error');
    return {
      problem: {
        type: problemType('internal_error'),
        title: ERROR_CODES.internal_error.title,
        status: 500,
        detail: `An unexpected error occurred; quote error id ${errorId} to support.`,
        instance,
        code: 'internal_error',
        errorId,
      },
    };
  }

  /** One line per 10 s while the database is away, with how many answers it stands for: an outage must not flood the log. */
  private logUnavailable(exception: unknown, request: FastifyRequest): void {
    const now = Date.now();
    if (now - this.unavailableLoggedAt < UNAVAILABLE_LOG_INTERVAL_MS) {
      this.unavailableUnlogged++;
      return;
    }
    const answered = this.unavailableUnlogged + 1;
    this.unavailableLoggedAt = now;
    this.unavailableUnlogged = 0;
    this.logger.warn({ err: errorForLog(exception), reqId: request.id, answered }, 'Database unavailable: answered 503');
  }
}

const UNAVAILABLE_LOG_INTERVAL_MS = 10_000;

function challengeFor(code: unknown): string {
  const realm = 'realm="eid-gateway"';
  if (code === 'invalid_token') return `Bearer ${realm}, error="invalid_token"`;
  return `ApiKey ${realm}, Bearer ${realm}`;
}

function statusOf(exception: unknown): number | undefined {
  if (exception instanceof HttpException) return exception.getStatus();
  // Fastify's own errors (bad JSON, body too large, wrong content type) carry statusCode.
  const status = (exception as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : undefined;
}

function clientMessage(exception: unknown, status: number): string {
  if (status === 404) return 'No such resource.';
  if (exception instanceof HttpException) {
    const response = exception.getResponse();
    const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
    if (Array.isArray(message)) return message.join('; ');
    return typeof message === 'string' ? message : String(STATUS_CODES[status]);
  }
  // Fastify's messages for client errors are fixed texts (e.g. "Body cannot be empty ..."), safe to show.
  return exception instanceof Error ? exception.message : String(STATUS_CODES[status]);
}
