import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('the dashboard API client', () => {
  it('takes every route and type from the generated dashboard-schema.d.ts, with no hand-written shapes or casts', () => {
    const source = readFileSync(path.resolve(__dirname, 'dashboard.ts'), 'utf8');
    expect(source).toMatch(/from '\.\/dashboard-schema'/);
    expect(source).toMatch(/createClient<paths>/);
    // No interface of its own and no `as` cast: a changed route must fail the type check here.
    expect(source).not.toMatch(/^\s*(export )?interface /m);
    expect(source).not.toMatch(/\bas [A-Z{]/);
    expect(source).not.toMatch(/request<[A-Z]/);
  });
});
