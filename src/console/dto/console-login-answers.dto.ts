import { ApiProperty } from '@nestjs/swagger';

/** The console's login answer: the token itself went into the HttpOnly cookie (docs/console.md). */
export class ConsoleLoginAnswerDto {
  @ApiProperty({ format: 'uuid' })
  userGuid: string;

  @ApiProperty({ example: '2026-11-21T11:00:00.000', description: 'When the session cookie stops working; UTC, without a zone.' })
  tokenExpiresAtUtc: string;
}
