import { Injectable } from '@nestjs/common';
import pino, { Logger } from 'pino';
import { AppConfig } from '../config/app-config';

/** The process's one pino logger: JSON lines on stdout, at LOG_LEVEL. */
@Injectable()
export class RootLogger {
  readonly pino: Logger;

  constructor(config: AppConfig) {
    this.pino = pino({ level: config.logLevel });
  }
}
