import { WEBHOOK_SECRET_LENGTH } from '../webhook-signature';
import { RESPONSE_BODY_LIMIT_BYTES } from '../webhook-sender';
import { ApiProperty } from '@nestjs/swagger';
import { DISABLED_REASONS } from '../webhook-endpoint.entity';
import { ENABLED_EVENT_CHOICES } from './webhook-endpoint-request.dto';
import { DELIVERED_EVENT_TYPES } from '../test-event-type';

/** An endpoint as listed and read: never its secret. */
export class WebhookEndpointResponseDto {
  @ApiProperty({ description: 'Endpoint id', example: 'we_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Where events are POSTed', example: 'https://example.com/webhooks/entitlements' })
  url: string;

  @ApiProperty({ description: '["*"] or the types received', type: [String], enum: ENABLED_EVENT_CHOICES, maxItems: ENABLED_EVENT_CHOICES.length, example: ['entitlement.revoked'] })
  enabled_events: string[];

  @ApiProperty({ description: 'A note for people', type: String, nullable: true, example: 'Production fulfilment server' })
  description: string | null;

  @ApiProperty({ description: 'True while deliveries are stopped', example: false })
  disabled: boolean;

  @ApiProperty({ description: 'Why it is disabled: manual (PATCH) or endpoint_gone (it answered 410)', enum: DISABLED_REASONS, type: String, nullable: true, example: null })
  disabled_reason: string | null;

  @ApiProperty({ description: 'True for live mode', example: false })
  livemode: boolean;

  @ApiProperty({ description: 'Until when the previous secret still signs after a rotation', type: String, nullable: true, example: null })
  previous_secret_expires_at: string | null;

  @ApiProperty({ description: 'Creation time', example: '2026-11-22T13:04:41.123Z' })
  created_at: string;

  @ApiProperty({ description: 'Last change', example: '2026-11-22T13:04:41.123Z' })
  updated_at: string;
}

/** Creation and rotation answers: the endpoint plus its signing secret, shown only here. */
export class WebhookEndpointWithSecretResponseDto extends WebhookEndpointResponseDto {
  @ApiProperty({ description: 'Signing secret (Standard Webhooks): whsec_ + base64 of 32 random bytes. Shown only on creation and rotation', maxLength: WEBHOOK_SECRET_LENGTH, example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw0AqXFXkG5HQ=' })
  secret: string;
}

export class DeletedWebhookEndpointResponseDto {
  @ApiProperty({ description: 'The deleted endpoint id', example: 'we_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Always true', example: true })
  deleted: boolean;
}

/** One delivery attempt. */
export class WebhookDeliveryResponseDto {
  @ApiProperty({ description: 'Attempt id', example: 'wd_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'The endpoint it was sent to', example: 'we_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  endpoint_id: string;

  @ApiProperty({ description: 'The event sent', example: 'evt_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  event_id: string;

  @ApiProperty({ description: 'Its type (`webhook_endpoint.test` for a test send)', enum: DELIVERED_EVENT_TYPES, example: 'entitlement.revoked' })
  event_type: string;

  @ApiProperty({ description: '1 for the first attempt of this delivery', example: 1 })
  attempt: number;

  @ApiProperty({ description: 'True when the endpoint answered 2xx', example: true })
  succeeded: boolean;

  @ApiProperty({ description: 'HTTP status answered; null when no answer (timeout, refused connection, forbidden address)', type: Number, nullable: true, example: 200 })
  status_code: number | null;

  @ApiProperty({ description: 'Why it failed; null on success', type: String, nullable: true, example: null })
  error: string | null;

  @ApiProperty({ description: 'Milliseconds from request to response body', example: 42 })
  duration_ms: number;

  @ApiProperty({ description: 'First 1 KiB of the response body', type: String, nullable: true, maxLength: RESPONSE_BODY_LIMIT_BYTES, example: 'ok' })
  response_body: string | null;

  @ApiProperty({ description: 'When the attempt started', example: '2026-11-22T13:04:41.123Z' })
  attempted_at: string;

  @ApiProperty({ description: 'When the retry is due; null when none follows', type: String, nullable: true, example: null })
  next_attempt_at: string | null;
}
