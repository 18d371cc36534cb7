import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '../auth/route-access.decorators';
import type { HttpResponse } from '../exchange/http-exchange';
import { RawResponse } from '../envelope/raw-response.decorator';
import { StorageHealthIndicator } from './storage.health';

/** Probes for orchestrators: public, no envelope (terminus's own shape), no database on liveness. */
@ApiTags('health')
@Public()
@RawResponse()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly storage: StorageHealthIndicator,
  ) {}

  @Get('live')
  @HealthCheck()
  @ApiOperation({ summary: 'Liveness', description: 'The process answers; touches nothing else.' })
  live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck()
  @ApiOperation({ summary: 'Readiness', description: 'Database and object storage are reachable.' })
  @ApiResponse({ status: 503, description: 'A dependency is down; the body says which' })
  async ready(@Res({ passthrough: true }) response: HttpResponse): Promise<HealthCheckResult | object> {
    try {
      return await this.health.check([
        () => this.database.pingCheck('database', { timeout: 3_000 }),
        () => this.storage.check('storage'),
      ]);
    } catch (error: unknown) {
      // Terminus reports "down" by throwing 503 with the details; answer it here rather than
      // let the catalogue filter turn an unknown status into a 500.
      if (!(error instanceof ServiceUnavailableException)) throw error;
      response.status(503);
      const details = error.getResponse();
      return typeof details === 'string' ? { status: 'error', message: details } : details;
    }
  }
}
