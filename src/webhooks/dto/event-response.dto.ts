import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EVENT_TYPES } from '../../database/domain-event';

export class EventDataDto {
  @ApiProperty({
    description: 'The resource after the change, in its API shape (an entitlement, product, file or download)',
    type: 'object',
    additionalProperties: true,
    example: { id: 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w', status: 'revoked' },
  })
  object: Record<string, unknown>;

  @ApiPropertyOptional({
    description: "Test mode: the test clock of the object's customer, present only for a customer bound to one (the event's created_at stays the real time)",
    example: 'clock_01jd8x3k2m4n5p6q7r8s9t0v1w',
  })
  test_clock?: string;
}

/** An event as listed, fetched and delivered to webhook endpoints (the delivered body is exactly this). */
export class EventResponseDto {
  @ApiProperty({ description: 'Event id; also the webhook-id header of its deliveries', example: 'evt_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Event type', enum: EVENT_TYPES, example: 'entitlement.revoked' })
  type: string;

  @ApiProperty({ description: 'When the change committed', example: '2026-11-22T13:04:41.123Z' })
  created_at: string;

  @ApiProperty({ description: 'True for live-mode events, false for test mode', example: false })
  livemode: boolean;

  @ApiProperty({ description: 'The changed resource', type: EventDataDto })
  data: EventDataDto;
}

export class RedeliveryResponseDto {
  @ApiProperty({ description: 'The event queued again', example: 'evt_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  event_id: string;

  @ApiProperty({ description: 'Endpoints that will receive it again', type: [String], example: ['we_01jd8x3k2m4n5p6q7r8s9t0v1w'] })
  endpoint_ids: string[];
}
