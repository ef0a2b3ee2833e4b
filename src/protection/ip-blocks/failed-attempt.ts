import type { FastifyRequest } from 'fastify';
import { DomainException } from '../../common/problem-details/domain.exception.js';

// Requests whose credential was a failed attempt (docs/protection.md): the guard that judged the
// credential marks them, the IP-block hook counts them once the answer is sent.
const failedAttempts = new WeakSet<object>();

/** Marks the request when `error` says its credential counts towards the caller's IP block. */
export function noteFailedAttempt(request: FastifyRequest, error: unknown): void {
  if (error instanceof DomainException && error.options.failedAttempt) failedAttempts.add(request.raw);
}

export const isFailedAttempt = (request: FastifyRequest): boolean => failedAttempts.has(request.raw);
