import { Global, Module } from '@nestjs/common';
import { PinoNestLogger } from './pino-nest.logger';
import { RootLogger } from './root-logger';

/** JSON logs through one pino logger: Nest's logs (PinoNestLogger) and the request lines (src/http/request-log.ts). */
@Global()
@Module({
  providers: [RootLogger, PinoNestLogger],
  exports: [RootLogger, PinoNestLogger],
})
export class LoggingModule {}
