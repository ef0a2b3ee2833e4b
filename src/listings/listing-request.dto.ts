import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';

export const MAX_PAGE_SIZE = 1_000;
export const MAX_SORT_COLUMNS = 10;

export class SortModelItemDto {
  @ApiProperty({ example: 'createdAt' })
  @IsString()
  @MaxLength(100)
  colId: string;

  @ApiProperty({ enum: ['asc', 'desc'] })
  @IsIn(['asc', 'desc'])
  sort: 'asc' | 'desc';
}

/** The v2 tabular request: rows [startRow, endRow), sorted and filtered by whitelisted columns. */
export class ListingRequestDto {
  @ApiProperty({ example: 0, description: 'Zero-based index of the first row.' })
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  startRow: number;

  @ApiProperty({ example: 100, description: `Exclusive end; endRow − startRow is the page size, 1 to ${MAX_PAGE_SIZE}.` })
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  endRow: number;

  @ApiPropertyOptional({ type: [SortModelItemDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_SORT_COLUMNS)
  @ValidateNested({ each: true })
  @Type(() => SortModelItemDto)
  sortModel?: SortModelItemDto[];

  @ApiPropertyOptional({
    description: 'Column id → filter: text, number, date (inRange), set, blank/notBlank, or {operator: AND|OR, conditions}.',
    example: {
      status: { filterType: 'set', values: ['complete'] },
      createdAt: { filterType: 'date', type: 'inRange', dateFrom: '2026-11-01', dateTo: '2026-11-30' },
    },
  })
  @IsOptional()
  @IsObject()
  filterModel?: Record<string, unknown>;
}
