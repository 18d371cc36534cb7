import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { AppConfig } from '../../config/app-config';
import { attachmentDisposition } from './content-disposition';
import { DownloadRequest, ObjectStorage, UploadRequest, UploadTarget } from './object-storage';

function secondsBetween(from: Date, to: Date): number {
  return Math.max(1, Math.round((to.getTime() - from.getTime()) / 1000));
}

/** S3 or any S3-compatible store (MinIO, R2) through the AWS SDK. */
export class S3ObjectStorage extends ObjectStorage {
  readonly driver = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: AppConfig) {
    super();
    const s3 = config.s3;
    if (!s3.bucket) throw new Error('S3_BUCKET is required when STORAGE_DRIVER=s3');
    this.bucket = s3.bucket;
    this.client = new S3Client({
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: s3.forcePathStyle,
      credentials:
        s3.accessKeyId && s3.secretAccessKey ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } : undefined,
      // S3-compatible stores reject the SDK's default CRC checksums on presigned requests.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /**
   * A presigned PUT that writes once: `If-None-Match: *` is signed, so the store refuses (412) a
   * PUT once the object exists, and a confirmed file's bytes can't be swapped through its URL
   * (S3, MinIO, R2 and GCS honour it). Confirm deletes an object of the wrong size, so the
   * client can upload again.
   */
  async createUploadUrl(request: UploadRequest): Promise<UploadTarget> {
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: request.objectKey, ContentType: request.contentType, IfNoneMatch: '*' });
    const url = await getSignedUrl(this.client, command, {
      expiresIn: secondsBetween(request.issuedAt, request.expiresAt),
      signingDate: request.issuedAt,
      signableHeaders: new Set(['content-type', 'if-none-match']),
    });
    return { url, headers: { 'Content-Type': request.contentType, 'If-None-Match': '*' } };
  }

  async objectSize(objectKey: string): Promise<number | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: objectKey }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return null;
      throw error;
    }
  }

  createDownloadUrl(request: DownloadRequest): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: request.objectKey,
      ResponseContentDisposition: attachmentDisposition(request.fileName),
      ResponseContentType: request.contentType,
    });
    return getSignedUrl(this.client, command, {
      expiresIn: secondsBetween(request.issuedAt, request.expiresAt),
      signingDate: request.issuedAt,
    });
  }

  async deleteObject(objectKey: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey }));
  }

  /** Lets the health check and shutdown release sockets. */
  destroy(): void {
    this.client.destroy();
  }

  async checkReady(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }
}
