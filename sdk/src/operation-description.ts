/** How the client sends one operation; sdk/src/generated/operations.ts holds one per operationId. */
export interface OperationDescription {
  /** `client.<group>.<name>`: the operationId's two halves. */
  readonly group: string;
  readonly name: string;
  readonly method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';
  /** The path template, `/v1/entitlements/{entitlement_id}`. */
  readonly path: string;
  /** The template's parameters in order: the method's leading string arguments. */
  readonly pathParameters: readonly string[];
  /** The argument after the path ids, if any. */
  readonly input: 'none' | 'query' | 'body' | 'queryAndBody';
  /** Request content types the operation accepts (`text/csv` takes a string body). */
  readonly contentTypes: readonly string[];
  /** A cursor-paginated list: the method returns a PagePromise. */
  readonly paginated: boolean;
  /** The credential the route expects; null for public routes. */
  readonly credential: 'apiKey' | 'adminToken' | null;
  /** Whether it takes an Idempotency-Key header, and also the body field `idempotency_key`. */
  readonly idempotency: 'none' | 'header' | 'headerOrBody';
}
