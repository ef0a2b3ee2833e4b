import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/access/access.decorators.js';
import { SigningKeysService } from './signing-keys.service.js';

@ApiTags('tokens')
@Controller('.well-known')
export class JwksController {
  constructor(private readonly signingKeys: SigningKeysService) {}

  @Get('jwks.json')
  @Public()
  // Short enough that a verifier caching it picks up a rotation soon; jose also refetches on an unknown kid.
  @Header('cache-control', 'public, max-age=60')
  @ApiOperation({ summary: 'Public keys that verify team-member tokens (RFC 7517)' })
  jwks() {
    return this.signingKeys.publicKeySet();
  }
}
