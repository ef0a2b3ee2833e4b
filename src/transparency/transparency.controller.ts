import { Controller, Get, Header, Inject, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/access.decorators.js';
import { RecentValue } from '../common/cache/recent-value.js';
import { ApiProblems, VALIDATION } from '../common/problem-details/api-problems.decorator.js';
import { serverConfig, type ServerConfig } from '../config/server.config.js';
import { ConsistencyProofDto, InclusionProofDto, TreeHeadDto } from './dto/transparency-answers.dto.js';
import { ConsistencyProofQueryDto, InclusionProofQueryDto } from './dto/transparency-queries.dto.js';
import { treeHeadView, TransparencyLog, type TreeHeadView } from './transparency-log.service.js';

/** The public face of the transparency log (docs/transparency.md): anyone may read and witness it. */
@ApiTags('transparency')
@Controller('transparency')
export class TransparencyController {
  // Anonymous: a flood costs one query per ANONYMOUS_CACHE_TTL (docs/operations.md).
  private readonly latest: RecentValue<TreeHeadView>;

  constructor(
    private readonly log: TransparencyLog,
    @Inject(serverConfig.KEY) server: ServerConfig,
  ) {
    this.latest = new RecentValue(server.anonymousCacheTtlMs, async () => {
      // A new log's first head (of no leaves) is signed by the publish job's first tick, or here.
      const head = (await this.log.latestTreeHead()) ?? (await this.log.publish(true)) ?? (await this.log.latestTreeHead());
      if (!head) throw new Error('No tree head after signing one');
      return treeHeadView(head);
    });
  }

  @Get('sth')
  @Public()
  @Header('cache-control', 'public, max-age=5')
  @ApiOperation({ summary: 'The latest signed tree head of the transparency log of result tokens' })
  @ApiOkResponse({ type: TreeHeadDto })
  @ApiProblems('rate_limit_exceeded')
  treeHead(): Promise<TreeHeadView> {
    return this.latest.get();
  }

  @Get('proof')
  @Public()
  @ApiOperation({ summary: "A result token's inclusion proof (RFC 9162 section 2.1.3) against a signed tree size" })
  @ApiOkResponse({ type: InclusionProofDto })
  @ApiProblems('rate_limit_exceeded', VALIDATION, 'leaf_not_found', 'tree_size_unavailable')
  inclusionProof(@Query() query: InclusionProofQueryDto) {
    return this.log.inclusionProof(Buffer.from(query.leaf, 'hex'), query.size);
  }

  @Get('consistency')
  @Public()
  @ApiOperation({ summary: 'A consistency proof between two signed tree sizes (RFC 9162 section 2.1.4)' })
  @ApiOkResponse({ type: ConsistencyProofDto })
  @ApiProblems('rate_limit_exceeded', VALIDATION, 'tree_size_unavailable')
  consistencyProof(@Query() query: ConsistencyProofQueryDto) {
    return this.log.consistencyProof(query.from, query.to);
  }
}
