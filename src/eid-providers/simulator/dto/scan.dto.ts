import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';
import { RISK_LEVELS, type RiskLevel } from '../../eid-provider.js';
import type { SimulatorAction } from '../simulator-order.entity.js';

export class ScanDto {
  @ApiPropertyOptional({ description: 'The frame read from the QR code (bankid.{token}.{time}.{code}).' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  qrData?: string;

  @ApiPropertyOptional({ description: 'The autostart token from the start answer, instead of qrData.' })
  @IsOptional()
  @IsUUID()
  autoStartToken?: string;

  @ApiPropertyOptional({ example: '199001011239', description: 'Swedish personal number, 12 digits.' })
  @IsOptional()
  @Matches(/^(19|20)\d{10}$/, { message: 'personalNumber must be 12 digits (YYYYMMDDNNNN)' })
  personalNumber?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1) @MaxLength(100) name?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1) @MaxLength(100) givenName?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1) @MaxLength(100) surname?: string;

  @ApiPropertyOptional({
    enum: RISK_LEVELS,
    default: 'low',
    description: "The risk the simulated provider judges the order, to play a key's maxRisk (riskTooHigh).",
  })
  @IsOptional()
  @IsIn(RISK_LEVELS)
  risk?: RiskLevel;

  @ApiPropertyOptional({ enum: ['approve', 'cancel'], default: 'approve' })
  @IsOptional()
  @IsIn(['approve', 'cancel'])
  action?: SimulatorAction;
}
