import { DynamicModule, Global, Module } from '@nestjs/common';
import { Metrics } from './metrics';
import { MetricsServer } from './metrics-server';
import { RequestObserver } from './request-observer';
import { StatementObserver } from './statement-observer';

/**
 * Metrics (and traces) for every module (DESIGN §16). `serve` adds the metrics listener: the API
 * server has it; the CLI counts nothing anyone scrapes and must not take the server's port.
 */
@Global()
@Module({})
export class ObservabilityModule {
  static forRoot(options: { serve: boolean }): DynamicModule {
    return {
      module: ObservabilityModule,
      providers: [Metrics, RequestObserver, StatementObserver, ...(options.serve ? [MetricsServer] : [])],
      exports: [Metrics, RequestObserver, StatementObserver],
    };
  }
}
