import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitRefusal } from './rate-limit-refusal.js';
import type { RateLimitsService } from './rate-limits.service.js';

/**
 * An API-key request's limits (docs/protection.md): refused with 429 past one, else the answer (and any
 * error after) carries the limit headers. Used by the RateLimitGuard and the hot routes alike.
 */
export async function applyKeyLimits(rateLimits: RateLimitsService, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const principal = request.principal;
  if (principal?.kind !== 'apiKey') return;
  const decision = await rateLimits.consume(principal.apiKey, request.ip);
  if (!decision) return;
  if (!decision.accepted) throw rateLimitRefusal(decision);
  void reply.headers(decision.headers);
}
