// Names for the OpenAPI document's schemas (generated/openapi.ts, `npm run openapi`), as the client's callers see them.
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];
export type StartAuthRequest = Schemas['StartSessionDto'];
export type StartSignRequest = Schemas['StartSignDto'];
export type StartPhoneAuthRequest = Schemas['StartPhoneAuthDto'];
export type StartPhoneSignRequest = Schemas['StartPhoneSignDto'];
export type StartPaymentRequest = Schemas['StartPaymentDto'];
export type StartedSession = Schemas['StartSessionAnswerDto'];
export type SessionState = Schemas['SessionStateDto'];
export type RawEvidence = Schemas['RawEvidenceDto'];
export type QrFrame = Schemas['QrFrameDto'];
export type SessionRow = Schemas['SessionRowDto'];
export type SortModelItem = Schemas['SortModelItemDto'];
export type WebhookEndpoint = Schemas['WebhookEndpointDto'];
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecretDto'];
export type CreateWebhookEndpointRequest = Schemas['CreateWebhookEndpointDto'];
export type UpdateWebhookEndpointRequest = Schemas['UpdateWebhookEndpointDto'];
export type WebhookDelivery = Schemas['WebhookDeliveryDto'];
export type WebhookEvent = Schemas['WebhookEventDto'];
export type { Problem } from './errors.js';

/** A filter of the tabular listings (docs/listings.md), by column id. */
export type FilterModel = Record<string, Record<string, unknown>>;

export interface ListOptions {
  filterModel?: FilterModel;
  sortModel?: SortModelItem[];
  /** Rows per request, 1 to 1,000 (default 100). */
  pageSize?: number;
  signal?: AbortSignal;
}
