/** A URL the client sends the object to, and the headers that request must carry. */
export interface UploadTarget {
  url: string;
  headers: Record<string, string>;
}

export interface UploadRequest {
  objectKey: string;
  contentType: string;
  declaredBytes: number;
  expiresAt: Date;
  /** When the URL is issued (the injected clock): validity runs from here. */
  issuedAt: Date;
}

export interface DownloadRequest {
  objectKey: string;
  contentType: string;
  fileName: string;
  expiresAt: Date;
  issuedAt: Date;
}

/**
 * The object-storage port. The Files module uploads and downloads through presigned URLs only;
 * the bytes never pass through the API routes. Adapters: S3 (any S3-compatible store) and local.
 */
export abstract class ObjectStorage {
  abstract readonly driver: 'local' | 's3';

  /** A presigned PUT whose Content-Type is part of the signature. */
  abstract createUploadUrl(request: UploadRequest): Promise<UploadTarget>;

  /** The stored object's size in bytes, or null when it does not exist. */
  abstract objectSize(objectKey: string): Promise<number | null>;

  /** A presigned GET answered with `Content-Disposition: attachment` and the file's name. */
  abstract createDownloadUrl(request: DownloadRequest): Promise<string>;

  abstract deleteObject(objectKey: string): Promise<void>;

  /** Resolves when the store can be used (readiness probe); rejects with the reason otherwise. */
  abstract checkReady(): Promise<void>;
}
