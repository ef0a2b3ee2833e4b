import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/**
 * The longest user agent accepted at the API. Providers may take fewer characters (docs/api.md,
 * "Device data": the provider's own limit is applied when the order is made, by cutting, since
 * in-app browsers send very long ones); this bound only keeps a request body reasonable.
 */
export const USER_AGENT_INPUT_MAX = 2048;
const FIELD_MAX = 256;

/** The browser the person started from, for the provider's risk assessment (docs/api.md, "Device data"). */
export class WebDeviceDto {
  @ApiPropertyOptional({ example: 'shop.example', maxLength: 253, description: 'The domain of the page the person started from.' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(253)
  referringDomain?: string;

  @ApiPropertyOptional({
    maxLength: USER_AGENT_INPUT_MAX,
    description: "The browser's User-Agent header; one longer than the provider takes is cut to its limit (see docs/api.md, Device data).",
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(USER_AGENT_INPUT_MAX)
  userAgent?: string;

  @ApiPropertyOptional({
    maxLength: FIELD_MAX,
    description: 'A stable identifier of the browser you keep (e.g. a hash of a cookie value).',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(FIELD_MAX)
  deviceIdentifier?: string;
}

/** The native app the person started from (docs/api.md, "Device data"). */
export class AppDeviceDto {
  @ApiPropertyOptional({
    example: 'com.example.shop',
    maxLength: FIELD_MAX,
    description: 'Your app’s identifier (bundle id, package name).',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(FIELD_MAX)
  appIdentifier?: string;

  @ApiPropertyOptional({ example: 'IOS 17.1', maxLength: FIELD_MAX })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(FIELD_MAX)
  deviceOS?: string;

  @ApiPropertyOptional({ example: 'iPhone15,2', maxLength: FIELD_MAX })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(FIELD_MAX)
  deviceModelName?: string;

  @ApiPropertyOptional({ maxLength: FIELD_MAX, description: 'A stable identifier of the device you keep.' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(FIELD_MAX)
  deviceIdentifier?: string;
}
