/**
 * A handler's result whose success status is decided while it runs (an upsert: 201 when it
 * created, 200 when it updated). The envelope interceptor sets the status and envelopes `body`;
 * an idempotent request stores that status with the body, so a replay answers the same.
 */
export class StatusResult<T> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}
