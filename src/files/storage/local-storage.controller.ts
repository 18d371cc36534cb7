import { Controller, Get, Inject, Put, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pathOf } from '../../http/request-path';
import { Public } from '../../auth/route-access.decorators';
import { Clock } from '../../clock/clock';
import { RawResponse } from '../../envelope/raw-response.decorator';
import { attachmentDisposition } from './content-disposition';
import { LOCAL_STORAGE_ROUTE, LocalObjectStorage, ObjectTooLargeError } from './local-object-storage';
import { LocalStorageMethod } from './local-storage-token';
import { ObjectStorage } from './object-storage';

const PREFIX = `/${LOCAL_STORAGE_ROUTE}/`;
/** The server's own limits (it sits outside the API-key rate limits): parallel uploads and idle sockets. */
const MAX_CONCURRENT_UPLOADS = 32;
const UPLOAD_IDLE_TIMEOUT_MILLISECONDS = 60_000;

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

function reply(response: FastifyReply, status: number, message: string, closeConnection = false): void {
  if (response.sent) return;
  if (closeConnection) response.header('Connection', 'close');
  void response.status(status).type('text/plain; charset=utf-8').send(`${message}\n`);
}

/**
 * The local driver's object server. Like S3 it speaks plain HTTP (no API key, no JSON envelope):
 * the signed token in the URL is the only authorisation. The JSON body parser only runs for
 * application/json, and upload MIME types never are, so bodies arrive here as raw streams.
 */
@ApiExcludeController()
@Public()
@RawResponse()
@Controller(LOCAL_STORAGE_ROUTE)
export class LocalStorageController {
  private uploadsInProgress = 0;

  constructor(
    @Inject(ObjectStorage) private readonly storage: ObjectStorage,
    private readonly clock: Clock,
  ) {}

  @Put('*')
  async upload(@Req() request: FastifyRequest, @Res() response: FastifyReply): Promise<void> {
    const authorised = this.authorise(request, response, 'PUT');
    if (!authorised) return;
    const { local, objectKey, grant } = authorised;
    if (mediaType(request.headers['content-type']) !== grant.contentType.toLowerCase()) {
      return reply(response, 403, `Content-Type must be ${grant.contentType}, as signed`, true);
    }
    const maxBytes = grant.maxBytes ?? 0;
    const declaredLength = Number(request.headers['content-length'] ?? 0);
    if (declaredLength > maxBytes) return reply(response, 413, `The body may not exceed ${maxBytes} bytes`, true);
    if (this.uploadsInProgress >= MAX_CONCURRENT_UPLOADS) {
      response.header('Retry-After', '1');
      return reply(response, 503, 'Too many uploads in progress; retry shortly', true);
    }
    this.uploadsInProgress += 1;
    // A stalled client is dropped; the temporary file is removed by writeObject.
    request.raw.setTimeout(UPLOAD_IDLE_TIMEOUT_MILLISECONDS, () => request.raw.destroy(new Error('Upload idle timeout')));
    try {
      await local.writeObject(objectKey, request.raw, maxBytes);
      reply(response, 200, 'OK');
    } catch (error) {
      if (error instanceof ObjectTooLargeError) return reply(response, 413, `The body may not exceed ${maxBytes} bytes`, true);
      reply(response, 400, 'The upload did not complete', true);
    } finally {
      this.uploadsInProgress -= 1;
    }
  }

  @Get('*')
  async download(@Req() request: FastifyRequest, @Res() response: FastifyReply): Promise<void> {
    const authorised = this.authorise(request, response, 'GET');
    if (!authorised) return;
    const { local, objectKey, grant } = authorised;
    const object = await local.openObject(objectKey);
    if (!object) return reply(response, 404, 'No such object');
    void response
      .status(200)
      .headers({
        'Content-Type': grant.contentType,
        'Content-Length': String(object.size),
        'Content-Disposition': attachmentDisposition(grant.fileName ?? 'download'),
        'Cache-Control': 'private, no-store',
      })
      .send(object.stream);
  }

  private authorise(request: FastifyRequest, response: FastifyReply, method: LocalStorageMethod) {
    const local = this.storage instanceof LocalObjectStorage ? this.storage : null;
    const path = pathOf(request.url);
    const objectKey = path.startsWith(PREFIX) ? path.slice(PREFIX.length) : '';
    if (!local || !LocalObjectStorage.isObjectKey(objectKey)) {
      reply(response, 404, 'No such object', method === 'PUT');
      return null;
    }
    const check = local.signer.verify((request.query as Record<string, unknown>).token, method, objectKey, this.clock.now());
    if (!check.valid) {
      reply(response, 403, check.reason === 'expired' ? 'The signed URL has expired' : 'The signature does not match', method === 'PUT');
      return null;
    }
    return { local, objectKey, grant: check.grant };
  }
}
