import type { ApiKey } from './api-key.entity.js';

/** A key as listings show it: prefix and last four identify it; the secret and its hash never appear. */
export function apiKeyView(apiKey: ApiKey) {
  return {
    id: apiKey.id,
    teamId: apiKey.teamId,
    name: apiKey.name,
    environment: apiKey.environment,
    displayPrefix: apiKey.displayPrefix,
    lastFour: apiKey.lastFour,
    scopes: apiKey.scopes,
    perMinuteLimit: apiKey.perMinuteLimit,
    monthlyLimit: apiKey.monthlyLimit,
    ipLimit: apiKey.ipLimit,
    maxRisk: apiKey.maxRisk ?? null,
    validUntil: apiKey.validUntil,
    blockedUntil: apiKey.blockedUntil,
    revokedAt: apiKey.revokedAt,
    lastUsedAt: apiKey.lastUsedAt ?? null,
    createdAt: apiKey.createdAt,
  };
}
