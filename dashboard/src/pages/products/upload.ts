import { failureOf, idempotent, unwrap, type ApiClient, type Schemas } from '../../api/client';

type MimeType = Schemas['CreateUploadUrlDto']['mime_type'];

export class UploadUnreachable extends Error {}

/** PUTs the bytes with XMLHttpRequest, the one browser API that reports upload progress. */
function put(url: string, headers: Record<string, string>, file: File, onProgress: (fraction: number) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => resolve(request.status);
    request.onerror = () => reject(new UploadUnreachable());
    request.send(file);
  });
}

/**
 * A browser upload through the API's presigned flow: upload-url (reserves the storage, the file is
 * PENDING), PUT the bytes to the storage URL, confirm. When the bytes can't be sent, the PENDING file
 * is removed again (its reservation with it) and the error names where uploads go, which
 * PUBLIC_BASE_URL (or the S3 endpoint) sets.
 */
export async function uploadFile(api: ApiClient, productId: string, file: File, idempotencyKey: string, onProgress: (fraction: number) => void = () => undefined): Promise<Schemas['FileResponseDto']> {
  const upload = unwrap(
    await api.POST('/v1/files/upload-url', {
      body: { file_name: file.name, file_size: file.size, mime_type: (file.type || 'application/octet-stream') as MimeType, product_id: productId },
      ...idempotent(idempotencyKey),
    }),
  );
  let status: number;
  try {
    status = await put(upload.upload_url, upload.upload_headers, file, onProgress);
  } catch (error) {
    await api.DELETE('/v1/files/{file_id}', { params: { path: { file_id: upload.file_id } } }).catch(() => undefined);
    if (error instanceof UploadUnreachable) {
      throw new UploadUnreachable(
        `Uploads go to ${new URL(upload.upload_url).origin}, set by PUBLIC_BASE_URL (or S3_ENDPOINT), and this browser can't reach it. Open the dashboard at that address, or set PUBLIC_BASE_URL to an address this browser reaches. Nothing was stored.`,
      );
    }
    throw error;
  }
  if (status < 200 || status >= 300) {
    await api.DELETE('/v1/files/{file_id}', { params: { path: { file_id: upload.file_id } } }).catch(() => undefined);
    throw failureOf(status, null);
  }
  return unwrap(await api.POST('/v1/files/{file_id}/confirm', { params: { path: { file_id: upload.file_id } }, ...idempotent(`${idempotencyKey}_confirm`) }));
}
