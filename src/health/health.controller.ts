import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '../auth/route-access.decorators';
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
  ready(): Promise<HealthCheckResult> {
    return this.health.check([
      () => this.database.pingCheck('database', { timeout: 3_000 }),
      () => this.storage.check('storage'),
    ]);
  }
}
