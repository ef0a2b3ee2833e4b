import { ApiProperty } from '@nestjs/swagger';
import { TeamDto } from '../../teams/dto/team.dto.js';

export class MeUserDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'anna@example.com' })
  email: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: '+46701234567' })
  phone: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class MeDto {
  @ApiProperty({ type: MeUserDto })
  user: MeUserDto;

  @ApiProperty({ type: TeamDto })
  team: TeamDto;
}
