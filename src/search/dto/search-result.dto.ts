import { ApiProperty } from '@nestjs/swagger';

/** What a search can find, each read from its own table. */
export const SEARCH_OBJECTS = ['customer', 'entitlement', 'product', 'order', 'subscription', 'file', 'event'] as const;
export type SearchObject = (typeof SEARCH_OBJECTS)[number];

/** One record GET /v1/search found: enough to show it in a list and open it. */
export class SearchResultDto {
  @ApiProperty({ description: 'What kind of record it is', enum: SEARCH_OBJECTS, example: 'customer' })
  object: SearchObject;

  @ApiProperty({ description: 'The record\'s id: GET /v1/{customers|entitlements|products|orders|subscriptions|files|events}/{id} reads it', example: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({
    description:
      "What a person recognises it by: a customer's, order's or subscription's store id, a product's or file's name, an event's type, " +
      "an entitlement's customer store id and product name",
    // A store id (255) and a product name (512) with their separator, the longest label.
    maxLength: 1024,
    example: 'store_cust_1001',
  })
  label: string;

  @ApiProperty({ description: 'Its id in the store, when it has one (null for entitlements, files and events)', type: String, nullable: true, example: 'store_cust_1001' })
  store_id: string | null;

  @ApiProperty({ description: 'When it was created', example: '2026-11-22T13:04:41.123Z' })
  created_at: string;
}
