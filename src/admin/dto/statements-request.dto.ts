import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, Matches, MaxLength } from 'class-validator';

const MONTH_DESCRIPTION = 'A calendar month (UTC) as YYYY-MM';
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const MONTH_MESSAGE = 'month must be a month as YYYY-MM, e.g. 2026-10';

/** Body of POST /admin/v1/statements/close. */
export class CloseStatementsDto {
  @ApiProperty({ description: `${MONTH_DESCRIPTION} that has ended; the current or a future month is refused`, example: '2026-10', pattern: MONTH.source, minLength: 7, maxLength: 7 })
  @IsDefined()
  @IsString()
  @MaxLength(7)
  @Matches(MONTH, { message: MONTH_MESSAGE })
  month: string;
}

/** Query of GET /admin/v1/statements. */
export class ListStatementsQueryDto {
  @ApiProperty({ description: MONTH_DESCRIPTION, example: '2026-10', pattern: MONTH.source, minLength: 7, maxLength: 7 })
  @IsDefined()
  @IsString()
  @MaxLength(7)
  @Matches(MONTH, { message: MONTH_MESSAGE })
  month: string;
}
