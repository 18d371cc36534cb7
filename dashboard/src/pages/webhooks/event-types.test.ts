import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from './event-types';

describe('the event types the dashboard offers', () => {
  it('are exactly the API’s (openapi.json)', () => {
    const document = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../openapi.json'), 'utf8')) as {
      components: { schemas: { EventResponseDto: { properties: { type: { enum: string[] } } } } };
    };
    expect([...EVENT_TYPES].sort()).toEqual([...document.components.schemas.EventResponseDto.properties.type.enum].sort());
  });
});
