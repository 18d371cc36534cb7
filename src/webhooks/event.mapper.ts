import { EventResponseDto } from './dto/event-response.dto';
import { EventEntity } from './event.entity';

/** The event as listed, fetched and delivered: `{id, type, created_at, livemode, data: {object}}`. */
export function toEventResponse(event: Pick<EventEntity, 'id' | 'type' | 'created_at' | 'mode' | 'data'>): EventResponseDto {
  return {
    id: event.id,
    type: event.type,
    created_at: event.created_at.toISOString(),
    livemode: event.mode === 'live',
    data: event.data.test_clock === undefined ? { object: event.data.object } : { object: event.data.object, test_clock: event.data.test_clock },
  };
}
