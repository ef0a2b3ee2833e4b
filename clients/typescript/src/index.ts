// The package's entry point (package.json "exports"): everything a caller imports from @eid-gateway/client.
export { EidGateway, type EidGatewayOptions } from './client.js';
export type { Environment } from './environment.js';
export { EidGatewayError, type ClientErrorCode } from './errors.js';
export type { ResultClaims, VerifyResultTokenOptions } from './result-token.js';
export type { QrImageOptions, Sessions, WaitOptions } from './sessions.js';
export { verifyWebhook, type HeadersLike, type WebhookDeliveries, type WebhookEndpoints } from './webhooks.js';
export type * from './types.js';
export { VERSION } from './version.js';
