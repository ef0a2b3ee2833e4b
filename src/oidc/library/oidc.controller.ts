import { All, Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/access.decorators.js';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import { SigningKeysService } from '../../tokens/signing-keys.service.js';
import { handOver } from './oidc-mount.js';
import { OidcProviderService } from './oidc-provider.service.js';

/** The OpenID Provider's endpoints (docs/oidc.md): everything under /oidc the login page does not answer. */
@ApiExcludeController()
@Public()
@Controller('oidc')
export class OidcController {
  constructor(
    private readonly oidc: OidcProviderService,
    private readonly signingKeys: SigningKeysService,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
  ) {}

  /** Every key that may have signed a live token, the retired ones included (the provider knows only the signer). */
  @Get('jwks')
  async jwks(@Res() reply: FastifyReply): Promise<void> {
    void reply
      .type('application/jwk-set+json; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('access-control-allow-origin', '*')
      .send(await this.signingKeys.publicKeySet());
  }

  @All('*')
  async provider(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await handOver(await this.oidc.provider(), request, reply, this.server.publicBaseUrl);
  }
}
