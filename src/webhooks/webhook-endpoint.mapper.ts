import { WebhookDeliveryResponseDto, WebhookEndpointResponseDto, WebhookEndpointWithSecretResponseDto } from './dto/webhook-endpoint-response.dto';
import { WebhookDeliveryAttemptEntity } from './webhook-delivery-attempt.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

export function toWebhookEndpointResponse(endpoint: WebhookEndpointEntity, now = new Date()): WebhookEndpointResponseDto {
  const overlap = endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now ? endpoint.previous_secret_expires_at : null;
  return {
    id: endpoint.id,
    url: endpoint.url,
    enabled_events: endpoint.enabled_events,
    description: endpoint.description,
    disabled: endpoint.disabled,
    disabled_reason: endpoint.disabled ? endpoint.disabled_reason : null,
    livemode: endpoint.mode === 'live',
    previous_secret_expires_at: overlap ? overlap.toISOString() : null,
    created_at: endpoint.created_at.toISOString(),
    updated_at: endpoint.updated_at.toISOString(),
  };
}

export function toWebhookEndpointWithSecret(endpoint: WebhookEndpointEntity): WebhookEndpointWithSecretResponseDto {
  return { ...toWebhookEndpointResponse(endpoint), secret: endpoint.secret };
}

export function toWebhookDeliveryResponse(attempt: WebhookDeliveryAttemptEntity): WebhookDeliveryResponseDto {
  return {
    id: attempt.id,
    endpoint_id: attempt.endpoint_id,
    event_id: attempt.event_id,
    event_type: attempt.event_type,
    attempt: attempt.attempt,
    succeeded: attempt.succeeded,
    status_code: attempt.status_code,
    error: attempt.error,
    duration_ms: attempt.duration_ms,
    response_body: attempt.response_body,
    attempted_at: attempt.attempted_at.toISOString(),
    next_attempt_at: attempt.next_attempt_at ? attempt.next_attempt_at.toISOString() : null,
  };
}
