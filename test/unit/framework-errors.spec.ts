import { Logger } from '@nestjs/common';
import express, { RequestHandler } from 'express';
import { errorCodes } from 'fastify';
import { PassThrough } from 'node:stream';
import { toApiError } from '../../src/http/all-exceptions.filter';
import { ERROR_CATALOGUE } from '../../src/errors/error-code.enum';

const request = { method: 'POST', path: '/v1/products', requestId: 'req_test' };
const CATALOGUE_STATUSES = new Set(Object.values(ERROR_CATALOGUE).map((entry) => entry.status));

/** A logger that fails the test: a framework client error must never be logged as an unexpected 500. */
function strictLogger(): Logger {
  const logger = new Logger('test');
  jest.spyOn(logger, 'error').mockImplementation((...args: unknown[]) => {
    throw new Error(`logged as unexpected: ${JSON.stringify(args).slice(0, 200)}`);
  });
  return logger;
}

/** Deliberate choices: a URL that can't be decoded names no resource (404, as the path rules say). */
const DELIBERATE_STATUS: Record<string, number> = { FST_ERR_BAD_URL: 404 };

/** The status a client error becomes: its own where the catalogue has it (405 as 404), else a 400. */
function expectMappedTo4xx(error: unknown, frameworkStatus: number, label: string): void {
  const mapped = toApiError(error, request, strictLogger());
  const expected = DELIBERATE_STATUS[label] ?? (frameworkStatus === 405 ? 404 : CATALOGUE_STATUSES.has(frameworkStatus) ? frameworkStatus : 400);
  expect({ label, status: mapped.status }).toEqual({ label, status: expected });
  expect(mapped.message).not.toMatch(/\n\s+at /);
}

/** Runs a body-parser middleware (as Express uses it) over an in-memory request; resolves with what it passed to next(). */
function bodyParserError(parser: RequestHandler, headers: Record<string, string>, body: string | null, abort = false): Promise<unknown> {
  const incoming = new PassThrough() as PassThrough & { headers: Record<string, string>; method: string; url: string };
  incoming.headers = headers;
  incoming.method = 'POST';
  incoming.url = '/';
  return new Promise((resolve) => {
    parser(incoming as never, {} as never, (error?: unknown) => resolve(error));
    if (abort) {
      incoming.write('{"a":');
      // After the parser has started reading, as a client that goes away does.
      setTimeout(() => {
        incoming.emit('aborted');
        incoming.end();
      }, 10);
    } else if (body !== null) {
      incoming.end(body);
    }
  });
}

describe('framework client errors in the catalogue', () => {
  it('maps every Fastify error code with a 4xx status to a 4xx catalogue error, never a 500', () => {
    let walked = 0;
    for (const [code, FastifyError] of Object.entries(errorCodes)) {
      const error = new (FastifyError as new (...args: unknown[]) => Error & { statusCode?: number })('a', 'b', 'c');
      if (error.statusCode === undefined || error.statusCode < 400 || error.statusCode >= 500) continue;
      walked += 1;
      expectMappedTo4xx(error, error.statusCode, code);
    }
    expect(walked).toBeGreaterThan(10);
  });

  it('keeps Fastify 5xx errors as logged 500s (they are not the client’s fault)', () => {
    const error = new errorCodes.FST_ERR_HOOK_TIMEOUT('hook');
    const logger = new Logger('test');
    const logged = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    expect(toApiError(error, request, logger).status).toBe(500);
    expect(logged).toHaveBeenCalled();
  });

  it('maps the errors body-parser (Express) raises to 4xx catalogue errors, never a 500', async () => {
    const json = express.json({ limit: 50 });
    const cases: Array<[string, Promise<unknown>]> = [
      ['entity.parse.failed', bodyParserError(json, { 'content-type': 'application/json', 'content-length': '5' }, '{"a":')],
      ['entity.too.large', bodyParserError(json, { 'content-type': 'application/json', 'content-length': '100' }, 'x'.repeat(100))],
      ['charset.unsupported', bodyParserError(json, { 'content-type': 'application/json; charset=latin1', 'content-length': '2' }, '{}')],
      ['encoding.unsupported', bodyParserError(json, { 'content-type': 'application/json', 'content-encoding': 'compress', 'content-length': '2' }, '{}')],
      ['request.size.invalid', bodyParserError(json, { 'content-type': 'application/json', 'content-length': '10' }, '{}')],
      ['request.aborted', bodyParserError(json, { 'content-type': 'application/json', 'content-length': '10' }, null, true)],
      [
        'entity.verify.failed',
        bodyParserError(
          express.json({
            verify: () => {
              throw new Error('refused');
            },
          }),
          { 'content-type': 'application/json', 'content-length': '2' },
          '{}',
        ),
      ],
      ['parameters.too.many', bodyParserError(express.urlencoded({ parameterLimit: 1, extended: false }), { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '7' }, 'a=1&b=2')],
    ];
    for (const [type, pending] of cases) {
      const error = (await pending) as { type?: string; status?: number };
      expect({ type, produced: error?.type }).toEqual({ type, produced: type });
      expectMappedTo4xx(error, error.status as number, type);
    }
  });
});
