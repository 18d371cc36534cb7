import { ApiProperty } from '@nestjs/swagger';

/** A customer record (DESIGN §6): created the first time its store customer id is seen. */
export class CustomerResponseDto {
  @ApiProperty({ description: 'Customer id', example: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Customer id in the e-commerce platform', example: 'store_cust_1001' })
  store_customer_id: string;

  @ApiProperty({ description: 'Test mode: the test clock the customer was bound to when it was created (DESIGN §14); null when unbound', type: String, nullable: true, example: null })
  test_clock: string | null;

  @ApiProperty({ description: 'When the customer was first seen', example: '2026-11-22T13:04:41.123Z' })
  created_at: string;
}
