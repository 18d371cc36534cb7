import { Controller, Get, Inject, Options, Param, Put, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Public } from '../../auth/route-access.decorators';
import { Clock } from '../../clock/clock';
import { AppConfig } from '../../config/app-config';
import { RawResponse } from '../../envelope/raw-response.decorator';
import { HttpRequest, HttpResponse, rawRequestOf, takeOverResponse } from '../../exchange/http-exchange';
import { armRequestDeadline } from '../../exchange/request-deadline';
import { FilesService } from '../files.service';
import { attachmentDisposition } from './content-disposition';
import { LOCAL_STORAGE_ROUTE, LocalObjectStorage, ObjectTooLargeError } from './local-object-storage';
import { LocalStorageMethod } from './local-storage-token';
import { ObjectStorage } from './object-storage';

/**
 * The server's own limits (it sits outside the API-key rate limits): parallel uploads per
 * merchant, so one merchant's stalled uploads can't refuse another's, and idle sockets.
 */
export const MAX_CONCURRENT_UPLOADS_PER_MERCHANT = 32;
const UPLOAD_IDLE_TIMEOUT_MILLISECONDS = 60_000;
/** An upload's deadline: HTTP_REQUEST_TIMEOUT plus its size at LOCAL_UPLOAD_MIN_BYTES_PER_SECOND, at most an hour. */
const UPLOAD_DEADLINE_CAP_MILLISECONDS = 60 * 60 * 1000;

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Like an S3 bucket's CORS rule for presigned URLs: any page may PUT or GET with a signed URL (the
 * token is the only authorisation, no cookie is read), so the dashboard uploads from whichever
 * address it was opened at, not only PUBLIC_BASE_URL's.
 */
const CROSS_ORIGIN_HEADERS: Record<string, string> = { 'Access-Control-Allow-Origin': '*' };
const PREFLIGHT_HEADERS: Record<string, string> = {
  ...CROSS_ORIGIN_HEADERS,
  'Access-Control-Allow-Methods': 'GET, PUT',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '600',
};

function reply(response: ServerResponse, status: number, message: string, options: { closeConnection?: boolean; headers?: Record<string, string> } = {}): void {
  if (response.headersSent) return;
  const headers: Record<string, string> = { 'Content-Type': 'text/plain; charset=utf-8', ...CROSS_ORIGIN_HEADERS, ...options.headers };
  if (options.closeConnection) headers.Connection = 'close';
  response.writeHead(status, headers).end(`${message}\n`);
}

/**
 * The local driver's object server. Like S3 it speaks plain HTTP (no API key, no JSON envelope):
 * the signed token in the URL is the only authorisation. The request gate leaves bodies outside
 * the JSON API unread, so uploads arrive here as the raw Node stream.
 */
@ApiExcludeController()
@Public()
@RawResponse()
@Controller(LOCAL_STORAGE_ROUTE)
export class LocalStorageController {
  private readonly uploadsByMerchant = new Map<string, number>();

  constructor(
    @Inject(ObjectStorage) private readonly storage: ObjectStorage,
    private readonly files: FilesService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** A browser's preflight before a cross-origin PUT (its Content-Type is not a simple one). */
  @Options(':merchant_id/:mode/:file_id')
  preflight(@Res() httpResponse: HttpResponse): void {
    takeOverResponse(httpResponse).writeHead(204, PREFLIGHT_HEADERS).end();
  }

  @Put(':merchant_id/:mode/:file_id')
  async upload(
    @Req() request: HttpRequest,
    @Res() httpResponse: HttpResponse,
    @Param() key: Record<string, string>,
    @Query('token') token: unknown,
  ): Promise<void> {
    const response = takeOverResponse(httpResponse);
    const body = rawRequestOf(request);
    const authorised = this.authorise(key, token, response, 'PUT');
    if (!authorised) return;
    const { local, objectKey, grant } = authorised;
    if (mediaType(request.headers['content-type']) !== grant.contentType.toLowerCase()) {
      return reply(response, 403, `Content-Type must be ${grant.contentType}, as signed`, { closeConnection: true });
    }
    const maxBytes = grant.maxBytes ?? 0;
    const declaredLength = Number(request.headers['content-length'] ?? 0);
    if (declaredLength > maxBytes) return reply(response, 413, `The body may not exceed ${maxBytes} bytes`, { closeConnection: true });
    if (!(await this.files.acceptsUpload(objectKey))) return this.refuseConfirmed(response);
    const merchantId = key.merchant_id;
    const inProgress = this.uploadsByMerchant.get(merchantId) ?? 0;
    if (inProgress >= MAX_CONCURRENT_UPLOADS_PER_MERCHANT) {
      return reply(response, 503, 'Too many uploads in progress for this merchant; retry shortly', { closeConnection: true, headers: { 'Retry-After': '1' } });
    }
    this.uploadsByMerchant.set(merchantId, inProgress + 1);
    // The body's deadline grows with its size; a stalled client is dropped sooner.
    armRequestDeadline(body, response, this.uploadDeadline(maxBytes));
    body.setTimeout(UPLOAD_IDLE_TIMEOUT_MILLISECONDS, () => body.destroy(new Error('Upload idle timeout')));
    try {
      const received = await local.receiveObject(body, maxBytes);
      const stored = await this.files.storeUpload(objectKey, () => local.placeObject(received, objectKey)).finally(() => local.discard(received));
      if (!stored) return this.refuseConfirmed(response);
      reply(response, 200, 'OK');
    } catch (error) {
      if (error instanceof ObjectTooLargeError) return reply(response, 413, `The body may not exceed ${maxBytes} bytes`, { closeConnection: true });
      reply(response, 400, 'The upload did not complete', { closeConnection: true });
    } finally {
      const remaining = (this.uploadsByMerchant.get(merchantId) ?? 1) - 1;
      if (remaining > 0) this.uploadsByMerchant.set(merchantId, remaining);
      else this.uploadsByMerchant.delete(merchantId);
    }
  }

  @Get(':merchant_id/:mode/:file_id')
  async download(@Res() httpResponse: HttpResponse, @Param() key: Record<string, string>, @Query('token') token: unknown): Promise<void> {
    const response = takeOverResponse(httpResponse);
    const authorised = this.authorise(key, token, response, 'GET');
    if (!authorised) return;
    const { local, objectKey, grant } = authorised;
    const object = await local.openObject(objectKey);
    if (!object) return reply(response, 404, 'No such object');
    response.writeHead(200, {
      'Content-Type': grant.contentType,
      'Content-Length': String(object.size),
      'Content-Disposition': attachmentDisposition(grant.fileName ?? 'download'),
      'Cache-Control': 'private, no-store',
      ...CROSS_ORIGIN_HEADERS,
    });
    // A client that goes away mid-download ends the pipeline; nothing to answer then.
    await pipeline(object.stream, response).catch(() => undefined);
  }

  /** The file is CONFIRMED: its upload URL no longer takes bytes, so what is delivered can't change. */
  private refuseConfirmed(response: ServerResponse): void {
    reply(response, 409, 'The file is confirmed or deleted: its upload URL no longer accepts bytes', { closeConnection: true });
  }

  private uploadDeadline(maxBytes: number): number {
    const transfer = (maxBytes / this.config.localUploadMinBytesPerSecond) * 1000;
    return Math.min(UPLOAD_DEADLINE_CAP_MILLISECONDS, Math.ceil(this.config.httpTimeouts.requestMilliseconds + transfer));
  }

  private authorise(key: Record<string, string>, token: unknown, response: ServerResponse, method: LocalStorageMethod) {
    const local = this.storage instanceof LocalObjectStorage ? this.storage : null;
    const objectKey = `${key.merchant_id}/${key.mode}/${key.file_id}`;
    if (!local || !LocalObjectStorage.isObjectKey(objectKey)) {
      reply(response, 404, 'No such object', { closeConnection: method === 'PUT' });
      return null;
    }
    const check = local.signer.verify(token, method, objectKey, this.clock.now());
    if (!check.valid) {
      reply(response, 403, check.reason === 'expired' ? 'The signed URL has expired' : 'The signature does not match', { closeConnection: method === 'PUT' });
      return null;
    }
    return { local, objectKey, grant: check.grant };
  }
}
