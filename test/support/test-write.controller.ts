import { Body, Controller, Module, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { RequireScopes } from '../../src/auth/route-access.decorators';

class TestWriteDto {
  @IsOptional()
  @IsString()
  note?: string;
}

/**
 * A write route for suites that need one whatever the domain modules offer (rate limits, body
 * errors). Kept out of the OpenAPI document, so the contract check leaves it alone.
 */
@ApiExcludeController()
@Controller('v1/test-writes')
class TestWriteController {
  @Post()
  @RequireScopes('products:write')
  write(@Body() body: TestWriteDto): { accepted: boolean; note: string | null } {
    return { accepted: true, note: body.note ?? null };
  }
}

@Module({ controllers: [TestWriteController] })
export class TestWriteModule {}
