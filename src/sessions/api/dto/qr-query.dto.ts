import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { QR_FORMATS, type QrFormat } from '../../../qr/qr-format.js';
import { MAX_IMAGE_PX, MIN_IMAGE_PX } from '../../../qr/qr-image.js';

export class QrQueryDto {
  @ApiPropertyOptional({ enum: QR_FORMATS, description: 'Overrides the Accept header.' })
  @IsOptional()
  @IsIn(QR_FORMATS)
  format?: QrFormat;

  @ApiPropertyOptional({
    minimum: MIN_IMAGE_PX,
    maximum: MAX_IMAGE_PX,
    description: 'Image width and height in pixels (PNG: rounded down to whole pixels per module; default 294).',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(MIN_IMAGE_PX)
  @Max(MAX_IMAGE_PX)
  size?: number;

  /** The API key may come in the query (docs/api.md); accepted here so validation does not refuse it. */
  @IsOptional()
  @IsString()
  key?: string;
}
