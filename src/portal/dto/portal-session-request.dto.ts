import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsOptionalNotNull } from '../../validation/is-optional-not-null.decorator';
import { STORE_ID_MAX_LENGTH } from '../../validation/input-bounds';

/** A return URL longer than this is no page a merchant links back to. */
export const RETURN_URL_MAX_LENGTH = 2048;

/** Body of POST /v1/portal-sessions: exactly one of customer_id / store_customer_id. */
export class CreatePortalSessionDto {
  @ApiPropertyOptional({ description: 'The customer the portal shows (one of customer_id / store_customer_id)', example: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  customer_id?: string;

  @ApiPropertyOptional({ description: 'The customer by its id in the e-commerce platform (one of customer_id / store_customer_id)', example: 'store_cust_1001' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_customer_id?: string;

  @ApiPropertyOptional({
    description: "Where the portal's Back link goes: https (http only on localhost, 127.0.0.1 or [::1]); none: no Back link",
    example: 'https://shop.example.com/account',
    nullable: true,
    type: String,
    maxLength: RETURN_URL_MAX_LENGTH,
  })
  @IsOptional()
  @IsString()
  @MaxLength(RETURN_URL_MAX_LENGTH)
  return_url?: string | null;
}
