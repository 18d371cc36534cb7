import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Metrics } from './metrics';
import { MetricsServer } from './metrics-server';
import { RequestObserver } from './request-observer';
import { StatementObserver } from './statement-observer';
import { Tracing } from './tracing';

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
      providers: [Metrics, { provide: Tracing, inject: [AppConfig], useFactory: (config: AppConfig) => Tracing.create(config) }, RequestObserver, StatementObserver, ...(options.serve ? [MetricsServer] : [])],
      exports: [Metrics, Tracing, RequestObserver, StatementObserver],
    };
  }
}
