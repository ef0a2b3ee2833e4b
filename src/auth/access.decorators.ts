import { SetMetadata } from '@nestjs/common';
import type { ApiKeyScope } from '../api-keys/api-key.entity.js';

export const IS_PUBLIC = 'auth:public';
export const REQUIRED_SCOPES = 'auth:scopes';
export const REQUIRED_FEATURES = 'auth:features';
export const IS_MANAGEMENT_ENDPOINT = 'auth:management';
export const IS_KEY_OR_MEMBER_ENDPOINT = 'auth:key-or-member';

/** No credential at all: health, JWKS, the kiosk page, the simulator's scan. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** The API-key scopes a route needs (all of them). */
export const Scopes = (...scopes: ApiKeyScope[]) => SetMetadata(REQUIRED_SCOPES, scopes);

/** Plan features the caller's team must have; missing ones are listed in the 403. */
export const RequireFeatures = (...features: string[]) => SetMetadata(REQUIRED_FEATURES, features);

/** Not a public API endpoint: only a team member's bearer token; an API key gets 403 endpoint_not_available. */
export const ManagementEndpoint = () => SetMetadata(IS_MANAGEMENT_ENDPOINT, true);

/**
 * Open to both: an API key (with its scopes, scoped to its environment) and a team member's token or the
 * console's cookie (the team's sessions in both environments). For what both an RP and the console fetch.
 */
export const KeyOrMemberEndpoint = () => SetMetadata(IS_KEY_OR_MEMBER_ENDPOINT, true);
