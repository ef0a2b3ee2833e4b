import { ApiProperty } from '@nestjs/swagger';

export class TreeHeadDto {
  @ApiProperty({ description: 'Leaves in the tree.', example: 1024 })
  treeSize: number;

  @ApiProperty({ description: 'Lower-case hex of the RFC 9162 root hash.', pattern: '^[0-9a-f]{64}$' })
  rootHash: string;

  @ApiProperty({ format: 'date-time', description: 'When the head was signed.' })
  timestamp: string;

  @ApiProperty({
    description:
      'Compact JWS (ES256, `typ` eidgw-sth+jwt, key in /.well-known/jwks.json) whose payload states `treeSize`, `rootHash` and `timestamp` (ms).',
  })
  jws: string;
}

export class InclusionProofDto {
  @ApiProperty({ pattern: '^[0-9a-f]{64}$' })
  leafHash: string;

  @ApiProperty({ description: 'Zero-based position of the leaf in the log.' })
  leafIndex: number;

  @ApiProperty()
  treeSize: number;

  @ApiProperty({ type: [String], description: 'RFC 9162 section 2.1.3 audit path, leaf side first, hex.' })
  inclusionProof: string[];

  @ApiProperty({ type: TreeHeadDto, nullable: true, description: 'The signed head of exactly `treeSize`, when one was published.' })
  treeHead: TreeHeadDto | null;
}

export class ConsistencyProofDto {
  @ApiProperty()
  from: number;

  @ApiProperty()
  to: number;

  @ApiProperty({ type: [String], description: 'RFC 9162 section 2.1.4 consistency proof, hex.' })
  consistencyProof: string[];
}
