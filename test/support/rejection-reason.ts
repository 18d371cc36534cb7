/** An error class whose instances say why in `reason` (the SDK's token and webhook verification errors). */
type ReasonedError = abstract new (...args: never[]) => Error & { reason: string };

/** The `reason` of the error `promise` rejects with; fails the test if it resolves or throws another class. */
export async function rejectionReason(promise: Promise<unknown>, errorClass: ReasonedError): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(errorClass);
  return (error as InstanceType<ReasonedError>).reason;
}
