import { PinoLogger } from 'nestjs-pino';
import { symbols } from 'pino';

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
 * Captures what the app's pino logger writes (request lines and application logs share its
 * stream), instead of letting it reach stdout. Call after the app is created, since nestjs-pino
 * sets its root logger while the app boots; boot the app at a quiet level and pass the level to
 * capture at, so start-up lines don't reach the test output.
 */
export function captureLogs(level = 'info'): LogCapture {
  const root = PinoLogger.root as unknown as Record<symbol, Writable> & { level: string };
  root.level = level;
  const stream = root[symbols.streamSym];
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
