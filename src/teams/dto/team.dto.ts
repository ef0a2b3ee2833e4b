import { ApiProperty } from '@nestjs/swagger';

export class SubscriptionDto {
  @ApiProperty()
  active: boolean;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  endsAt: string | null;
}

export class TeamDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Acme AB' })
  name: string;

  @ApiProperty({ example: 'pro' })
  plan: string;

  @ApiProperty({ type: [String], example: ['webhooks'] })
  features: string[];

  @ApiProperty({ type: SubscriptionDto })
  subscription: SubscriptionDto;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}
