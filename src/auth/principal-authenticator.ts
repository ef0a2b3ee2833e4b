import { Injectable } from '@nestjs/common';
import { ApiKeyLastUseService } from '../api-keys/api-key-last-use.service.js';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import type { Principal } from './principal.js';
import { BearerAuthenticator } from './bearer-authenticator.js';
import type { PresentedCredential } from './credentials.js';

/**
 * Steps 3 and 4 of the order of checks (docs/protection.md): the credential → who calls, with the key's
 * state and the team's subscription checked. A key comes from the key cache: no database round trip
 * for a known key (docs/security.md). Throws the DomainException that says whether it was a failed attempt.
 */
@Injectable()
export class PrincipalAuthenticator {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly bearer: BearerAuthenticator,
    private readonly lastUse: ApiKeyLastUseService,
  ) {}

  async authenticate(credential: PresentedCredential): Promise<Principal> {
    if (credential.kind === 'bearer') return this.bearer.authenticate(credential.value);
    const principal: Principal = { kind: 'apiKey', ...(await this.apiKeys.authenticate(credential.value)) };
    // A key that authenticated was used, whatever the later checks decide; noted in memory, written off the request path.
    this.lastUse.note(principal.apiKey.id);
    return principal;
  }
}
