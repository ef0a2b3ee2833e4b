/** Every action the audit log knows (docs/audit.md); its target type is the part before the dot. */
export const AUDIT_ACTIONS = [
  'api_key.created',
  'api_key.revoked',
  'api_key.blocked',
  'webhook_endpoint.created',
  'webhook_endpoint.changed',
  'webhook_endpoint.deleted',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.test_sent',
  'webhook_delivery.redelivered',
  'oidc_client.created',
  'oidc_client.changed',
  'oidc_client.deleted',
  'oidc_client.secret_rotated',
  'saml_service_provider.created',
  'counter_link.created',
  'counter_link.revoked',
  'saml_service_provider.changed',
  'saml_service_provider.deleted',
  'member.added',
  'member.removed',
  'console.login',
  'team.created',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const targetTypeOf = (action: AuditAction): string => action.slice(0, action.indexOf('.'));
