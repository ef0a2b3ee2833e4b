import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import { Public } from '../auth/access.decorators.js';
import { RecentValue } from '../common/cache/recent-value.js';
import { serverConfig, type ServerConfig } from '../config/server.config.js';
import { SigningKeysService } from './signing-keys.service.js';
import { ApiProblems } from '../common/problem-details/api-problems.decorator.js';
import { JwksDto } from './dto/jwks.dto.js';

@ApiTags('tokens')
@Controller('.well-known')
export class JwksController {
  // Anonymous: a flood costs one query per ANONYMOUS_CACHE_TTL (docs/operations.md).
  private readonly keySet: RecentValue<Awaited<ReturnType<SigningKeysService['publicKeySet']>>>;

  constructor(signingKeys: SigningKeysService, @Inject(serverConfig.KEY) server: ServerConfig) {
    this.keySet = new RecentValue(server.anonymousCacheTtlMs, () => signingKeys.publicKeySet());
  }

  @Get('jwks.json')
  @Public()
  // Short enough that a verifier caching it picks up a rotation soon; jose also refetches on an unknown kid.
  @Header('cache-control', 'public, max-age=60')
  @ApiOperation({ summary: 'Public keys that verify team-member tokens (RFC 7517)' })
  @ApiOkResponse({ type: JwksDto })
  @ApiProblems()
  jwks() {
    return this.keySet.get();
  }
}
