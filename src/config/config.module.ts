import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './app-config';
import { validateEnvironment } from './config.schema';

/**
 * Validates the environment once (fail fast) and exposes it as AppConfig.
 * Tests pass overrides instead of mutating process.env.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(overrides: Record<string, string | undefined> = {}): DynamicModule {
    const environment = validateEnvironment({ ...process.env, ...overrides });
    return {
      module: ConfigModule,
      providers: [{ provide: AppConfig, useValue: new AppConfig(environment) }],
      exports: [AppConfig],
    };
  }
}
