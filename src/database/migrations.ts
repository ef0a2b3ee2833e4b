import { CreateTeamsUsersApiKeys1795300000000 } from '../../migrations/1795300000000-CreateTeamsUsersApiKeys.js';
import { CreateSessionsAndSimulatorOrders1795300100000 } from '../../migrations/1795300100000-CreateSessionsAndSimulatorOrders.js';
import { CreateWebhooks1795300200000 } from '../../migrations/1795300200000-CreateWebhooks.js';
import { CreateOtpChallengesAndSigningKeys1795300300000 } from '../../migrations/1795300300000-CreateOtpChallengesAndSigningKeys.js';
import { CreateProtectionState1795300400000 } from '../../migrations/1795300400000-CreateProtectionState.js';
import { IndexIpBlocksInForce1795300500000 } from '../../migrations/1795300500000-IndexIpBlocksInForce.js';
import { CountApiKeyRequestsPerSecond1795300615000 } from '../../migrations/1795300615000-CountApiKeyRequestsPerSecond.js';
import { TrackOtpLockouts1795301400000 } from '../../migrations/1795301400000-TrackOtpLockouts.js';
import { IndexDueDeliveriesByEndpoint1795301400001 } from '../../migrations/1795301400001-IndexDueDeliveriesByEndpoint.js';
import { AddSessionOperationAndChannel1795301700000 } from '../../migrations/1795301700000-AddSessionOperationAndChannel.js';
import { AddTeamConsole1795302200000 } from '../../migrations/1795302200000-AddTeamConsole.js';
import { ReserveApiKeyAllowances1795302315000 } from '../../migrations/1795302315000-ReserveApiKeyAllowances.js';
import { AddSameDeviceFlow1795303100000 } from '../../migrations/1795303100000-AddSameDeviceFlow.js';
import { KeepSessionEvidence1795303200000 } from '../../migrations/1795303200000-KeepSessionEvidence.js';
import { AddProgressWebhookEvents1795303500000 } from '../../migrations/1795303500000-AddProgressWebhookEvents.js';
import { RecordApiKeyLastUse1795303600000 } from '../../migrations/1795303600000-RecordApiKeyLastUse.js';
import { OrderSimulatorOrdersByInsertion1795303700000 } from '../../migrations/1795303700000-OrderSimulatorOrdersByInsertion.js';
import { CountConsoleLoginFailures1795303733000 } from '../../migrations/1795303733000-CountConsoleLoginFailures.js';
import { IndexSessionsForStats1795304000000 } from '../../migrations/1795304000000-IndexSessionsForStats.js';
import { CreateAuditEvents1795304100000 } from '../../migrations/1795304100000-CreateAuditEvents.js';
import { CreateSessionEvents1795304200000 } from '../../migrations/1795304200000-CreateSessionEvents.js';
import { CreateOidcClientsAndModels1795304270000 } from '../../migrations/1795304270000-CreateOidcClientsAndModels.js';
import { AddPaymentAndRisk1795304600000 } from '../../migrations/1795304600000-AddPaymentAndRisk.js';
import { CreateRevokedTokens1795304650000 } from '../../migrations/1795304650000-CreateRevokedTokens.js';
import { CreateSamlServiceProviders1796623915120 } from '../../migrations/1796623915120-CreateSamlServiceProviders.js';
import { AddSessionAgeOver1796633046852 } from '../../migrations/1796633046852-AddSessionAgeOver.js';
import { AddIdCardSessionsAndCounterLinks1796633556549 } from '../../migrations/1796633556549-AddIdCardSessionsAndCounterLinks.js';
import { CreateUpstreamOidcOrders1795305100000 } from '../../migrations/1795305100000-CreateUpstreamOidcOrders.js';
import { GuardAuditEventsAgainstDelete1796621489090 } from '../../migrations/1796621489090-GuardAuditEventsAgainstDelete.js';
import { AddMemberRolesAndInvitations1796621704368 } from '../../migrations/1796621704368-AddMemberRolesAndInvitations.js';
import { CreateTransparencyLog1796620804371 } from '../../migrations/1796620804371-CreateTransparencyLog.js';
import { CreateEudiOrders1796620965790 } from '../../migrations/1796620965790-CreateEudiOrders.js';

// Listed explicitly rather than globbed: the same list works from src/ under jest and from dist/.
export const MIGRATIONS = [
  CreateTeamsUsersApiKeys1795300000000,
  CreateSessionsAndSimulatorOrders1795300100000,
  CreateWebhooks1795300200000,
  CreateOtpChallengesAndSigningKeys1795300300000,
  CreateProtectionState1795300400000,
  IndexIpBlocksInForce1795300500000,
  CountApiKeyRequestsPerSecond1795300615000,
  TrackOtpLockouts1795301400000,
  IndexDueDeliveriesByEndpoint1795301400001,
  AddSessionOperationAndChannel1795301700000,
  AddTeamConsole1795302200000,
  ReserveApiKeyAllowances1795302315000,
  AddSameDeviceFlow1795303100000,
  KeepSessionEvidence1795303200000,
  AddProgressWebhookEvents1795303500000,
  RecordApiKeyLastUse1795303600000,
  OrderSimulatorOrdersByInsertion1795303700000,
  CountConsoleLoginFailures1795303733000,
  IndexSessionsForStats1795304000000,
  CreateAuditEvents1795304100000,
  CreateSessionEvents1795304200000,
  CreateOidcClientsAndModels1795304270000,
  AddPaymentAndRisk1795304600000,
  CreateRevokedTokens1795304650000,
  CreateUpstreamOidcOrders1795305100000,
  CreateTransparencyLog1796620804371,
  CreateEudiOrders1796620965790,
  GuardAuditEventsAgainstDelete1796621489090,
  AddMemberRolesAndInvitations1796621704368,
  CreateSamlServiceProviders1796623915120,
  AddSessionAgeOver1796633046852,
  AddIdCardSessionsAndCounterLinks1796633556549,
];
