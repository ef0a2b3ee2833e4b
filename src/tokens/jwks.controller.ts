import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/auth.decorators.js';
import { SigningKeysService } from './signing-keys.service.js';
import { ApiProblems } from '../common/problem-details/api-problems.decorator.js';
import { JwksDto } from './dto/jwks.dto.js';

@ApiTags('tokens')
@Controller('.well-known')
export class JwksController {
  constructor(private readonly signingKeys: SigningKeysService) {}

  @Get('jwks.json')
  @Public()
  // Short enough that a verifier caching it picks up a rotation soon; jose also refetches on an unknown kid.
  @Header('cache-control', 'public, max-age=60')
  @ApiOperation({ summary: 'Public keys that verify team-member tokens (RFC 7517)' })
  @ApiOkResponse({ type: JwksDto })
  @ApiProblems()
  jwks() {
    return this.signingKeys.publicKeySet();
  }
}
