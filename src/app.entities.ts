import { ApiKey } from './api-keys/api-key.entity.js';
import { AuditEvent } from './audit/audit-event.entity.js';
import { CounterLink } from './idcard/counter-link.entity.js';
import { Team } from './teams/team.entity.js';
import { User } from './users/user.entity.js';
import { EID_PROVIDER_ENTITIES } from './eid-providers/eid-provider-entities.js';
import { Session } from './sessions/session.entity.js';
import { OtpChallenge } from './otp/otp-challenge.entity.js';
import { SigningKey } from './tokens/signing-key.entity.js';
import { WebhookAttempt } from './webhooks/webhook-attempt.entity.js';
import { WebhookDelivery } from './webhooks/webhook-delivery.entity.js';
import { WebhookEndpoint } from './webhooks/webhook-endpoint.entity.js';

// The entities of every feature, composed here at the application root and handed to the DataSource
// (src/database/ imports no feature). Listed explicitly rather than globbed: the same list works from
// src/ under jest and from dist/.
export const ENTITIES = [
  Team,
  User,
  ApiKey,
  Session,
  ...EID_PROVIDER_ENTITIES,
  OtpChallenge,
  SigningKey,
  WebhookEndpoint,
  WebhookDelivery,
  WebhookAttempt,
  AuditEvent,
  CounterLink,
];
