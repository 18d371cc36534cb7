import { createHash, createHmac } from 'node:crypto';
import { ApiError } from '../../src/errors/api-error';
import { ErrorCode } from '../../src/errors/error-code.enum';
import { decodeCursor, encodeCursor, useCursorSecret } from '../../src/pagination/cursor';
import { toPageRequest, toPageResult } from '../../src/pagination/page';

function expectInvalidCursor(cursor: string): void {
  let thrown: unknown;
  try {
    decodeCursor(cursor);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ApiError);
  expect((thrown as ApiError).code).toBe(ErrorCode.INVALID_PARAMETER);
  expect((thrown as ApiError).param).toBe('cursor');
  expect((thrown as ApiError).status).toBe(400);
}

describe('cursor', () => {
  const position = { at: '2026-11-22T13:04:41.123Z', id: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' };

  it('round-trips a position and is opaque (no raw id or timestamp visible)', () => {
    const cursor = encodeCursor(position);
    expect(decodeCursor(cursor)).toEqual(position);
    expect(cursor).not.toContain(position.id);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('refuses an altered payload, an altered checksum and garbage', () => {
    const cursor = encodeCursor(position);
    const [payload, sum] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify([1, position.at, 'prod_other'])).toString('base64url');
    expectInvalidCursor(`${forged}.${sum}`);
    expectInvalidCursor(`${payload}.${sum.slice(0, -1)}${sum.endsWith('A') ? 'B' : 'A'}`);
    expectInvalidCursor(`${payload.slice(1)}.${sum}`);
    expectInvalidCursor(payload);
    expectInvalidCursor(`${cursor}.extra`);
    expectInvalidCursor('');
    expectInvalidCursor('not-a-cursor');
  });

  it('refuses a payload signed with anything but the server secret (a public checksum, another secret)', () => {
    const payload = Buffer.from(JSON.stringify([2, position.at, position.id])).toString('base64url');
    const checksum = createHash('sha256').update(`cursor:v2:${payload}`).digest('base64url').slice(0, 12);
    expectInvalidCursor(`${payload}.${checksum}`);
    const otherSecret = createHmac('sha256', 'another-secret').update(`cursor:v2:${payload}`).digest().subarray(0, 16).toString('base64url');
    expectInvalidCursor(`${payload}.${otherSecret}`);
  });

  it('refuses a payload that carries the right signature but is not a position (impossible dates included)', () => {
    const secret = Buffer.from('unit-test-cursor-secret');
    useCursorSecret(secret);
    // Signed as encodeCursor signs, for payloads encodeCursor would never write.
    const forge = (value: unknown) => {
      const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
      return `${payload}.${createHmac('sha256', secret).update(`cursor:v2:${payload}`).digest().subarray(0, 16).toString('base64url')}`;
    };
    expect(decodeCursor(forge([2, position.at, position.id]))).toEqual(position);
    expectInvalidCursor(forge([2, 'yesterday', 'x']));
    expectInvalidCursor(forge([2, '1', 'x']));
    expectInvalidCursor(forge([2, '2026-11-22', 'x']));
    expectInvalidCursor(forge([2, '2026-13-45T99:99:99.999Z', 'x']));
    expectInvalidCursor(forge([2, '2024-02-30T00:00:00.000Z', 'x']));
    expectInvalidCursor(forge([2, '0000-01-01T00:00:00.000Z', 'x']));
    expectInvalidCursor(forge([2, position.at, 'x'.repeat(65)]));
    expectInvalidCursor(forge([1, position.at, position.id]));
    expectInvalidCursor(forge({ at: position.at, id: position.id }));
    expectInvalidCursor(forge([2, position.at, 42]));
  });

  it('builds page requests and results with has_more and next_cursor from the extra row', () => {
    expect(toPageRequest({})).toEqual({ limit: 25, after: null });
    const request = toPageRequest({ limit: 2, cursor: encodeCursor(position) });
    expect(request).toEqual({ limit: 2, after: position });
    const rows = [1, 2, 3].map((index) => ({ id: `row_${index}`, created_at: new Date(Date.UTC(2026, 0, index)) }));
    const page = toPageResult(rows, request, (row) => row.created_at, (row) => row.id, 10);
    expect(page.items).toEqual(['row_1', 'row_2']);
    expect(page.pagination).toMatchObject({ total: 10, limit: 2, has_more: true });
    expect(decodeCursor(page.pagination.next_cursor as string)).toEqual({ at: rows[1].created_at.toISOString(), id: 'row_2' });
    const last = toPageResult(rows.slice(0, 2), request, (row) => row.created_at, (row) => row.id);
    expect(last.pagination).toEqual({ limit: 2, has_more: false, next_cursor: null });
  });
});
