import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { STORE_ID_MAX_LENGTH } from '../../validation/input-bounds';

/** GET /v1/search. */
export class SearchQueryDto {
  @ApiProperty({
    description:
      'What to find: any id (cus_, ent_, prod_, ord_, sub_, file_, evt_), or the start of a store id (a customer, product, order or ' +
      'subscription id in the store, case-sensitive; a store id that is an email is found by its first characters too)',
    minLength: 1,
    maxLength: STORE_ID_MAX_LENGTH,
    example: 'store_cust_10',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(STORE_ID_MAX_LENGTH)
  q: string;
}
