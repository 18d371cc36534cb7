import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { API_KEY_RANDOM_LENGTH, API_KEY_SECRET_LENGTH } from '../../src/auth/api-key-format';
import { CHECKSUM_LENGTH } from '../../src/auth/credential-checksum';
import { EVENT_TYPES } from '../../src/database/domain-event';

/**
 * Facts the guides repeat, checked against their source so a change there fails here instead of
 * leaving a guide wrong: the number of operations (openapi.json), the API key's format
 * (api-key-format.ts, credential-checksum.ts), event type names (EVENT_TYPES) and metric route
 * labels (the routes of openapi.json, as Express writes them). Derived, never today's numbers.
 */
const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const documents = ['README.md', 'sdk/README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

const openapi = JSON.parse(read('openapi.json')) as { paths: Record<string, Record<string, unknown>> };
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
const operationCount = Object.values(openapi.paths).reduce((sum, item) => sum + Object.keys(item).filter((method) => METHODS.has(method)).length, 0);

/** Each match with the document it is in, for readable failures. */
function occurrences(pattern: RegExp): Array<{ file: string; match: RegExpMatchArray }> {
  return documents.flatMap((file) => [...read(file).matchAll(pattern)].map((match) => ({ file, match })));
}

describe('numbers and names the guides repeat', () => {
  it("say openapi.json's number of operations wherever they count all of them", () => {
    // "N operations" anywhere: a guide that counts a part of them names no number (it would go stale as routes are added).
    const counted = occurrences(/\b(\d+) operations\b/g).map(({ file, match }) => `${file}: ${match[0]}`);
    expect(counted.length).toBeGreaterThan(0);
    expect(counted.filter((text) => !text.endsWith(`: ${operationCount} operations`))).toEqual([]);
    expect(occurrences(/\(\d+ today\)/g).map(({ file, match }) => `${file}: ${match[0]}`)).toEqual([]);
  });

  it("give the API key's format as the code makes it: random characters, checksum, length after the prefix", () => {
    expect(API_KEY_RANDOM_LENGTH + CHECKSUM_LENGTH).toBe(API_KEY_SECRET_LENGTH);
    for (const file of ['docs/keys-and-modes.md', 'docs/operations.md']) {
      const text = read(file).replace(/\s+/g, ' ');
      expect({ file, random: /\b(\d+) random\b/.exec(text)?.[1] }).toEqual({ file, random: String(API_KEY_RANDOM_LENGTH) });
      expect({ file, checksum: /\b(\d+)-character (keyed )?checksum/.exec(text)?.[1] }).toEqual({ file, checksum: String(CHECKSUM_LENGTH) });
      const total = /(?:followed by|\b)(\d+) (?:base62 )?characters(?: after the prefix|: \d+ random)/.exec(text)?.[1];
      expect({ file, total }).toEqual({ file, total: String(API_KEY_SECRET_LENGTH) });
    }
  });

  it('name only event types that exist', () => {
    const resources = new Set(EVENT_TYPES.map((type) => type.split('.')[0]));
    const named = occurrences(/`([a-z_]+)\.([a-z_]+)`/g)
      .filter(({ match }) => resources.has(match[1]))
      .map(({ file, match }) => ({ file, type: `${match[1]}.${match[2]}` }));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter(({ type }) => !(EVENT_TYPES as readonly string[]).includes(type))).toEqual([]);
  });

  it('give route labels that are routes of openapi.json, as the metrics write them', () => {
    const routes = new Set(Object.keys(openapi.paths).map((route) => route.replace(/\{([^}]+)\}/g, ':$1')));
    const labels = occurrences(/`(\/v1\/[^`\s]*:[^`\s]*)`/g).map(({ file, match }) => ({ file, label: match[1] }));
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.filter(({ label }) => !routes.has(label))).toEqual([]);
  });
});
