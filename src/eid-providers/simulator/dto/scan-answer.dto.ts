import { ApiProperty } from '@nestjs/swagger';

export class ScanAnswerDto {
  @ApiProperty({ enum: [true] })
  scanned: boolean;

  @ApiProperty({ enum: ['approve', 'cancel'] })
  action: string;
}
