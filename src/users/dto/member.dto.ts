import { ApiProperty } from '@nestjs/swagger';

export class MemberDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'ada@example.com' })
  email: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: '+46701234567' })
  phone: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}
