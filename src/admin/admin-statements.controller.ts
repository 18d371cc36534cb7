import { Body, Controller, Get, Headers, HttpCode, Post, Query, Req, StreamableFile } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { AdminRoute } from '../auth/route-access.decorators';
import { AdminUsageStatementResponseDto, StatementsClosedResponseDto } from '../billing/dto/usage-statement-response.dto';
import { statementsCsv } from '../billing/usage-statement.mapper';
import { UsageStatementsService } from '../billing/usage-statements.service';
import { CSV_CONTENT_TYPE, wantsCsv } from '../envelope/csv';
import { Envelope, envelopeOf } from '../envelope/envelope';
import { RawResponse } from '../envelope/raw-response.decorator';
import { requestIdOf } from '../envelope/request-id';
import type { HttpRequest } from '../exchange/http-exchange';
import { ErrorCode } from '../errors/error-code.enum';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { MetaDto } from '../swagger/envelope.dto';
import { CloseStatementsDto, ListStatementsQueryDto } from './dto/statements-request.dto';

/** The operator's side of usage statements (DESIGN §17): closing a month, and the month's billing run. */
@AdminRoute()
@Controller('admin/v1/statements')
export class AdminStatementsController {
  constructor(private readonly statements: UsageStatementsService) {}

  @Post('close')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Close an ended month',
    description:
      'Writes the usage statement of every merchant and mode for the month, if not written yet, and publishes statement.created for each ' +
      'one written. The service does this by itself within the hour after a month ends; this closes one on demand. Idempotent: a second ' +
      'call, or one concurrent with the scheduled close, writes nothing more. The current or a future month is refused (400).',
  })
  @ApiEnvelopeResponse(StatementsClosedResponseDto, { description: 'How many statements this call wrote' })
  @ApiErrorResponses(ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER)
  close(@Body() body: CloseStatementsDto): Promise<StatementsClosedResponseDto> {
    return this.statements.closeMonth(body.month);
  }

  @Get()
  @RawResponse()
  @ApiOperation({
    summary: "List a month's live statements (JSON or CSV)",
    description:
      "Every merchant's live-mode statement of the month, by merchant id: what the operator bills. With `Accept: text/csv` the same rows " +
      'as CSV (RFC 4180, a header row), as the CLI\'s `statements:export --month` writes them.',
  })
  @ApiExtraModels(AdminUsageStatementResponseDto, MetaDto)
  @ApiResponse({
    status: 200,
    description: "The month's live statements",
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['data', 'meta'],
          properties: { data: { type: 'array', items: { $ref: getSchemaPath(AdminUsageStatementResponseDto) } }, meta: { $ref: getSchemaPath(MetaDto) } },
        },
      },
      'text/csv': {
        schema: { type: 'string', example: 'id,merchant_id,month,mode,plan,included_bandwidth_bytes,bandwidth_bytes,overage_bytes,price_per_gib,currency,amount,created_at,reported_at,report_error\r\n' },
      },
    },
  })
  @ApiErrorResponses(ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER)
  async list(
    @Query() query: ListStatementsQueryDto,
    @Headers('accept') accept: string | undefined,
    @Req() request: HttpRequest,
  ): Promise<Envelope<unknown> | StreamableFile> {
    const statements = await this.statements.listMonth(query.month);
    if (!wantsCsv(accept)) return envelopeOf(statements, requestIdOf(request));
    return new StreamableFile(Buffer.from(statementsCsv(statements)), {
      type: CSV_CONTENT_TYPE,
      disposition: `attachment; filename="statements-${query.month}.csv"`,
    });
  }
}
