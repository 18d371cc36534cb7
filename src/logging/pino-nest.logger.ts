import { Injectable, LoggerService } from '@nestjs/common';
import type { Level } from 'pino';
import { RootLogger } from './root-logger';

/**
 * Nest's logger (application and framework logs) written through pino. Accepts Nest's calls
 * (`log('message', 'Context')`) and pino's (`error({ err }, 'message')`); Nest appends the
 * Logger's context as the last string parameter.
 */
/** Nest's boot chatter (one line per module and route): debug, so start-up shows main.ts's summary alone. */
const FRAMEWORK_BOOT_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

@Injectable()
export class PinoNestLogger implements LoggerService {
  constructor(private readonly root: RootLogger) {}

  fatal(message: unknown, ...parameters: unknown[]): void {
    this.write('fatal', message, parameters);
  }

  error(message: unknown, ...parameters: unknown[]): void {
    this.write('error', message, parameters);
  }

  warn(message: unknown, ...parameters: unknown[]): void {
    this.write('warn', message, parameters);
  }

  log(message: unknown, ...parameters: unknown[]): void {
    const context = parameters[parameters.length - 1];
    this.write(typeof context === 'string' && FRAMEWORK_BOOT_CONTEXTS.has(context) ? 'debug' : 'info', message, parameters);
  }

  debug(message: unknown, ...parameters: unknown[]): void {
    this.write('debug', message, parameters);
  }

  verbose(message: unknown, ...parameters: unknown[]): void {
    this.write('trace', message, parameters);
  }

  private write(level: Level, message: unknown, parameters: unknown[]): void {
    const logger = this.root.pino;
    if (!logger.isLevelEnabled(level)) return;
    const rest = [...parameters];
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    if (message instanceof Error) {
      logger[level]({ context, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      const text = typeof rest[0] === 'string' ? (rest.shift() as string) : undefined;
      logger[level]({ context, ...message, ...(rest.length > 0 ? { details: rest } : {}) }, text);
    } else {
      // Nest's error(message, stack, context): the stack comes as a second string.
      logger[level]({ context, ...(rest.length > 0 ? { details: rest } : {}) }, String(message));
    }
  }
}
