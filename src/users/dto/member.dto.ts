import { ApiProperty } from '@nestjs/swagger';

export class MemberDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'ada@example.com' })
  email: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: '+46701234567' })
  phone: string | null;

  @ApiProperty({ enum: ['owner', 'member'], description: 'Owners add and remove members.' })
  role: string;

  @ApiProperty({
    enum: ['invited', 'joined'],
    description: 'invited until the first login; an invitation of a contact that cannot join stays invited.',
  })
  status: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}
