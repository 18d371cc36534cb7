import { ApiProperty } from '@nestjs/swagger';

export class GrantRuleResponseDto {
  @ApiProperty({ description: 'Grant rule id', example: 'rule_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'The product whose grant fires the rule', example: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  trigger_product_id: string;

  @ApiProperty({ description: 'The product the rule grants', example: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1x' })
  grant_product_id: string;

  @ApiProperty({ description: "Days of access the rule's grant gives; null = the grant product's defaults", type: Number, nullable: true, example: 30 })
  access_duration_days: number | null;

  @ApiProperty({ description: 'Whether the rule fires', example: true })
  enabled: boolean;

  @ApiProperty({ description: 'Creation time', example: '2026-11-22T13:04:41.123Z' })
  created_at: string;

  @ApiProperty({ description: 'Last change', example: '2026-11-22T13:04:41.123Z' })
  updated_at: string;
}

export class DeletedGrantRuleResponseDto {
  @ApiProperty({ description: 'The deleted rule id', example: 'rule_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Always true', example: true })
  deleted: boolean;
}
