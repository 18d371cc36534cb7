import { ClientAddress } from '../exchange/client-address.decorator';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Tenant } from '../database/tenant';
import type { Operation } from '../database/operation';
import { PageResult } from '../envelope/page-result';
import { ErrorCode } from '../errors/error-code.enum';
import { CurrentOperation } from '../idempotency/current-operation.decorator';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiJsonBody } from '../swagger/api-json-body.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { CreateUploadUrlDto } from './dto/create-upload-url.dto';
import { DownloadQueryDto, DownloadResponseDto } from './dto/download.dto';
import { ListFilesQueryDto } from './dto/file-query.dto';
import { DeletedFileResponseDto, FileResponseDto, UploadUrlResponseDto } from './dto/file-response.dto';
import { DownloadsService } from './downloads.service';
import { FilesService } from './files.service';
import { ApiIdParam } from '../swagger/api-path-parameters';
import { mayLag } from '../swagger/replica-lag';

const FILE_ID = ApiIdParam('file_id', 'file', 'File', [['POST /v1/files/upload-url', 'file_id'], 'GET /v1/files']);

@ApiTags('files')
@Controller('v1/files')
export class FilesController {
  constructor(
    private readonly files: FilesService,
    private readonly downloads: DownloadsService,
  ) {}

  @Post('upload-url')
  @HttpCode(201)
  @RequireScopes('files:write')
  @ApiOperation({
    summary: 'Create an upload URL',
    description:
      "Reserves the declared size against the plan's storage and returns a presigned URL valid 1 hour. PUT the bytes there with the returned upload_headers (Content-Type = mime_type), then confirm. With product_id the file is linked to that product.",
  })
  @ApiJsonBody(CreateUploadUrlDto, { file_name: 'field-guide.pdf', file_size: 1048576, mime_type: 'application/pdf' })
  @ApiEnvelopeResponse(UploadUrlResponseDto, { status: 201, description: 'The upload URL and the PENDING file' })
  @ApiErrorResponses(
    ErrorCode.MISSING_REQUIRED_FIELD,
    ErrorCode.INVALID_PARAMETER,
    ErrorCode.FILE_TOO_LARGE,
    ErrorCode.STORAGE_LIMIT_REACHED,
    ErrorCode.PRODUCT_NOT_FOUND,
  )
  createUploadUrl(@CurrentOperation() operation: Operation, @Body() body: CreateUploadUrlDto): Promise<UploadUrlResponseDto> {
    return this.files.createUploadUrl(operation, body);
  }

  @Post(':file_id/confirm')
  @HttpCode(200)
  @RequireScopes('files:write')
  @ApiOperation({
    summary: 'Confirm an upload',
    description:
      'Checks the object exists and its size is within 10% of the declared file_size; stores the actual size, moves it from reserved to used storage and publishes file.uploaded. Outside the tolerance the object is deleted and the file stays PENDING.',
  })
  @FILE_ID
  @ApiEnvelopeResponse(FileResponseDto, { description: 'The CONFIRMED file' })
  @ApiErrorResponses(ErrorCode.FILE_NOT_FOUND, ErrorCode.UPLOAD_NOT_CONFIRMED, ErrorCode.FILE_ALREADY_CONFIRMED, ErrorCode.STORAGE_LIMIT_REACHED)
  confirm(@CurrentOperation() operation: Operation, @Param('file_id') fileId: string): Promise<FileResponseDto> {
    return this.files.confirm(operation, fileId);
  }

  @Get(':file_id/download')
  @RequireScopes('files:read')
  @ApiOperation({
    summary: 'Create a download URL',
    description:
      "Checks, in order: the entitlement exists and belongs to the customer; it is active; the file belongs to the entitled product; the upload is confirmed; the month's bandwidth allows it. Then records the download, counts one use of the entitlement and the bandwidth, publishes download.completed, and returns a URL valid 60 seconds.",
  })
  @FILE_ID
  @ApiEnvelopeResponse(DownloadResponseDto, { description: 'The signed URL and the download record' })
  @ApiErrorResponses(
    ErrorCode.MISSING_REQUIRED_FIELD,
    ErrorCode.NOT_FOUND,
    ErrorCode.ENTITLEMENT_NOT_ACTIVE,
    ErrorCode.UPLOAD_NOT_CONFIRMED_FOR_DOWNLOAD,
    ErrorCode.BANDWIDTH_LIMIT_REACHED,
  )
  download(
    @CurrentOperation() operation: Operation,
    @Param('file_id') fileId: string,
    @Query() query: DownloadQueryDto,
    @ClientAddress() clientAddress: string,
  ): Promise<DownloadResponseDto> {
    return this.downloads.download(operation, fileId, query, clientAddress);
  }

  // Before DELETE: Swagger UI lists a path's operations in this order, and /docs acts on the last file (DESIGN §20).
  @Get(':file_id')
  @RequireScopes('files:read')
  @ApiOperation({ summary: 'Get a file' })
  @FILE_ID
  @ApiEnvelopeResponse(FileResponseDto, { description: 'The file' })
  @ApiErrorResponses(ErrorCode.FILE_NOT_FOUND)
  get(@CurrentTenant() tenant: Tenant, @Param('file_id') fileId: string): Promise<FileResponseDto> {
    return this.files.get(tenant, fileId);
  }

  @Delete(':file_id')
  @HttpCode(200)
  @RequireScopes('files:write')
  @ApiOperation({
    summary: 'Delete a file',
    description:
      'A PENDING file is deleted with its storage reservation, its product links (each product publishes `product.updated`) and any ' +
      'bytes already uploaded; its upload URL stops working. A CONFIRMED file linked to a product is refused with 409 `FILE_IN_USE` ' +
      '(remove it from the products\' `fulfillment_config.file_ids` first); an unlinked one is deleted and its bytes leave used storage. ' +
      'Download records of the file stay (they are the meter).',
  })
  @FILE_ID
  @ApiEnvelopeResponse(DeletedFileResponseDto, { description: 'The file is deleted' })
  @ApiErrorResponses(ErrorCode.FILE_NOT_FOUND, ErrorCode.FILE_IN_USE)
  delete(@CurrentOperation() operation: Operation, @Param('file_id') fileId: string): Promise<DeletedFileResponseDto> {
    return this.files.delete(operation, fileId);
  }

  @Get()
  @RequireScopes('files:read')
  @ApiOperation(mayLag({
    summary: 'List files',
    description: 'Newest first, cursor-paginated with total, PENDING and CONFIRMED; filter by the product they are linked to and by upload status.',
  }))
  @ApiEnvelopeResponse(FileResponseDto, { description: 'A page of files', list: 'total' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER)
  list(@CurrentTenant() tenant: Tenant, @Query() query: ListFilesQueryDto): Promise<PageResult<FileResponseDto>> {
    return this.files.list(tenant, query);
  }
}
