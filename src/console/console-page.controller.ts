import { Controller, Get, Logger, Param, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/access.decorators.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { CONSOLE_PAGE_HEADERS, loadConsoleBuild } from './console-assets.js';

/** The team console's page and files (docs/console.md); it talks to the management API from the browser. */
@ApiTags('console')
@Public()
@Controller('console')
export class ConsolePageController {
  private readonly build = loadConsoleBuild();

  constructor() {
    if (!this.build.index) new Logger(ConsolePageController.name).warn('The console is not built (dist/console); run npm run build');
  }

  // An HTML page for people, not part of the API contract (docs/console.md).
  @Get()
  @ApiExcludeEndpoint()
  page(@Res() reply: FastifyReply): void {
    if (!this.build.index) throw new DomainException('not_found', 'The console is not built; run npm run build.');
    void reply.headers(CONSOLE_PAGE_HEADERS).type('text/html; charset=utf-8').send(this.build.index);
  }

  @Get('assets/:name')
  @ApiExcludeEndpoint()
  asset(@Param('name') name: string, @Res() reply: FastifyReply): void {
    const asset = this.build.assets.get(name);
    if (!asset) throw new DomainException('not_found', 'No such resource.');
    void reply
      .header('content-type', asset.contentType)
      // Vite names each file by its content hash, so a name never changes meaning.
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(asset.body);
  }
}
