/**
 * Every machine-readable `code` this service answers with. Typing the table as a Record over the
 * union makes the compiler refuse a code without a status and title.
 */
export type ErrorCode =
  | 'validation_failed'
  | 'missing_token'
  | 'invalid_api_key'
  | 'invalid_token'
  | 'invalid_kiosk_token'
  | 'ip_blocked'
  | 'invalid_validation_code'
  | 'validation_code_expired'
  | 'api_key_blocked'
  | 'api_key_expired'
  | 'insufficient_scope'
  | 'subscription_required'
  | 'subscription_expired'
  | 'feature_required'
  | 'endpoint_not_available'
  | 'csrf_check_failed'
  | 'unknown_provider'
  | 'session_not_found'
  | 'evidence_not_found'
  | 'evidence_purged'
  | 'leaf_not_found'
  | 'tree_size_unavailable'
  | 'not_found'
  | 'session_not_pending'
  | 'session_not_final'
  | 'return_nonce_mismatch'
  | 'operation_not_supported'
  | 'order_not_found'
  | 'qr_not_available'
  | 'order_in_progress'
  | 'provider_rejected_request'
  | 'qr_invalid'
  | 'qr_expired'
  | 'invalid_webhook_url'
  | 'delivery_not_redeliverable'
  | 'endpoint_disabled'
  | 'member_exists'
  | 'entity_id_taken'
  | 'cannot_remove_self'
  | 'owner_required'
  | 'rate_limit_exceeded'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'provider_unavailable'
  | 'otp_delivery_failed'
  | 'service_unavailable'
  | 'internal_error';

export interface ErrorDefinition {
  status: number;
  title: string;
}

export const ERROR_CODES: Record<ErrorCode, ErrorDefinition> = {
  validation_failed: { status: 400, title: 'Validation failed' },
  missing_token: { status: 401, title: 'Missing credentials' },
  invalid_api_key: { status: 401, title: 'Invalid API key' },
  invalid_token: { status: 401, title: 'Invalid token' },
  invalid_kiosk_token: { status: 401, title: 'Invalid kiosk link' },
  ip_blocked: { status: 401, title: 'Unauthorized' },
  invalid_validation_code: { status: 401, title: 'Invalid validation code' },
  validation_code_expired: { status: 401, title: 'Validation code expired' },
  api_key_blocked: { status: 403, title: 'API key blocked' },
  api_key_expired: { status: 403, title: 'API key expired' },
  insufficient_scope: { status: 403, title: 'Insufficient scope' },
  subscription_required: { status: 403, title: 'Subscription Required' },
  subscription_expired: { status: 403, title: 'Subscription Expired' },
  feature_required: { status: 403, title: 'Feature Not Available' },
  endpoint_not_available: { status: 403, title: 'Endpoint Not Available' },
  csrf_check_failed: { status: 403, title: 'Cross-site request refused' },
  unknown_provider: { status: 404, title: 'Unknown provider' },
  session_not_found: { status: 404, title: 'Session not found' },
  evidence_not_found: { status: 404, title: 'No evidence' },
  evidence_purged: { status: 410, title: 'Evidence purged' },
  leaf_not_found: { status: 404, title: 'Leaf not in the log' },
  tree_size_unavailable: { status: 400, title: 'No signed tree head of that size' },
  not_found: { status: 404, title: 'Not Found' },
  session_not_pending: { status: 409, title: 'Session not pending' },
  session_not_final: { status: 409, title: 'Session not final' },
  return_nonce_mismatch: { status: 409, title: 'Return nonce mismatch' },
  operation_not_supported: { status: 404, title: 'Operation not supported by the provider' },
  order_not_found: { status: 404, title: 'Order not found' },
  qr_not_available: { status: 409, title: 'No QR code for this session' },
  order_in_progress: { status: 409, title: 'Order already in progress' },
  provider_rejected_request: { status: 400, title: 'Request refused by the provider' },
  qr_invalid: { status: 400, title: 'Invalid QR code' },
  qr_expired: { status: 400, title: 'QR code expired' },
  invalid_webhook_url: { status: 400, title: 'Invalid webhook URL' },
  delivery_not_redeliverable: { status: 409, title: 'Delivery cannot be redelivered' },
  endpoint_disabled: { status: 409, title: 'Endpoint disabled' },
  member_exists: { status: 409, title: 'Member exists' },
  entity_id_taken: { status: 409, title: 'Entity ID already registered' },
  cannot_remove_self: { status: 409, title: 'Cannot remove yourself' },
  owner_required: { status: 403, title: 'Owner required' },
  rate_limit_exceeded: { status: 429, title: 'Too Many Requests' },
  payload_too_large: { status: 413, title: 'Payload Too Large' },
  unsupported_media_type: { status: 415, title: 'Unsupported Media Type' },
  provider_unavailable: { status: 502, title: 'Provider unavailable' },
  otp_delivery_failed: { status: 502, title: 'Code delivery failed' },
  service_unavailable: { status: 503, title: 'Service Unavailable' },
  internal_error: { status: 500, title: 'Internal Server Error' },
};

/** Problem type URIs are stable identifiers (RFC 9457 §3.1.1); they need not resolve. */
export const problemType = (code: ErrorCode): string => `urn:eid-gateway:problem:${code}`;
