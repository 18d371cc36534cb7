import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { EVENT_TYPES } from '../../src/database/domain-event';

/**
 * The webhooks guide lists every event type, in the catalogue's order: its table after the
 * `<!-- event-types -->` marker is checked against EVENT_TYPES, so a new type can't go unlisted.
 */
describe('the event types in docs/webhooks.md', () => {
  it('are the catalogue’s, all of them, in order', () => {
    const guide = readFileSync(path.resolve(__dirname, '../../docs/webhooks.md'), 'utf8');
    const marker = guide.indexOf('<!-- event-types -->');
    expect(marker).toBeGreaterThan(-1);
    const table = guide.slice(marker).split('\n\n')[0];
    const listed = [...table.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \|/gm)].map((match) => match[1]);
    expect(listed).toEqual([...EVENT_TYPES]);
  });
});
