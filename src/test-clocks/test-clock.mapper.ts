import type { TestClockEntity } from '../test-clock-records/test-clock.entity';
import { TestClockResponseDto } from './dto/test-clock-response.dto';

export function toTestClockResponse(clock: TestClockEntity): TestClockResponseDto {
  return {
    id: clock.id,
    object: 'test_clock',
    frozen_time: clock.frozen_time.toISOString(),
    name: clock.name,
    status: 'ready',
    created_at: clock.created_at.toISOString(),
  };
}
