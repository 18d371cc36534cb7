import type { INestApplication } from '@nestjs/common';
import { symbols } from 'pino';
import { RootLogger } from '../../src/logging/root-logger';

interface Writable {
  write(chunk: string): boolean;
}

export interface LogCapture {
  /** Every JSON line written since the capture started, parsed. */
  lines(): Record<string, unknown>[];
  /** The raw text written, to search for what must never appear. */
  text(): string;
  stop(): void;
}

/**
 * Captures what the app's pino logger writes (request lines and application logs share it),
 * instead of letting it reach stdout. Boot the app at a quiet level and pass the level to capture
 * at, so start-up lines don't reach the test output.
 */
export function captureLogs(app: INestApplication, level = 'info'): LogCapture {
  const root = app.get(RootLogger).pino;
  root.level = level;
  const stream = (root as unknown as Record<symbol, Writable>)[symbols.streamSym];
  const chunks: string[] = [];
  const spy = jest.spyOn(stream, 'write').mockImplementation((chunk: string) => {
    chunks.push(String(chunk));
    return true;
  });
  return {
    text: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line.trim().length > 0)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    stop: () => spy.mockRestore(),
  };
}
