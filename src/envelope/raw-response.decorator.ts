import { SetMetadata } from '@nestjs/common';

export const RAW_RESPONSE = 'rawResponse';

/** The route answers in its own format (health checks, the local storage server), not the envelope. */
export const RawResponse = () => SetMetadata(RAW_RESPONSE, true);
