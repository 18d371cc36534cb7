import OpenAPIRequestValidator from 'openapi-request-validator';
import type { OpenAPIV3 } from 'openapi-types';
import { buildOpenApiDocument } from '../../src/swagger/openapi';
import { ID_PREFIXES, idLength } from '../../src/ids/id';
import { ApiOperation, documentOperations, fillPath } from '../support/openapi-operations';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';
import { LOOPBACK_WEBHOOK_URL, validBodies } from '../support/valid-requests';

/**
 * The document says what the server enforces about unknown fields (DESIGN §20): every JSON
 * request body the document closes (`additionalProperties: false`) is one the server refuses a
 * typo'd field in, and the reverse; and a validator reading the document alone (what Prism, mocks
 * and generated clients do) catches the same typo the server answers 400 to.
 */
const TYPO = 'zz_typo_field';
type ComponentSchemas = ConstructorParameters<typeof OpenAPIRequestValidator>[0]['componentSchemas'];

/** A well-formed id of the prefix a path parameter names (nothing exists under it: the body is refused first). */
function wellFormedId(parameter: string): string {
  const prefix = Object.values(ID_PREFIXES).find((candidate) => parameter.startsWith(`${candidate}_`) || parameter === `${candidate}_id`) ?? 'prod';
  return `${prefix}_${'0'.repeat(idLength(prefix) - prefix.length - 1)}`;
}

describe('unknown fields: the document and the server agree', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let operations: ApiOperation[];

  beforeAll(async () => {
    testApp = await createTestApp();
    tenant = await testApp.createTenant('growth');
    operations = documentOperations(testApp.app).filter((operation) => operation.body !== null);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('every JSON request body of the document is closed, and the server refuses a typo in each with 400 naming it', async () => {
    const bodies = validBodies({});
    const closed = operations.filter((operation) => operation.body?.additionalProperties === false);
    // Every body is closed (an import's rows are checked row by row, inside its closed body); a new open one must be a deliberate choice.
    expect(operations.filter((operation) => operation.body?.additionalProperties !== false).map((operation) => operation.key)).toEqual([]);
    expect(closed.length).toBeGreaterThanOrEqual(20);
    const refusals: Array<{ operation: string; status: number; code: string; param: string | undefined }> = [];
    for (const operation of closed) {
      const path = fillPath(operation.template, Object.fromEntries(operation.pathParameters.map((parameter) => [parameter.name, parameter.schema.example === undefined ? wellFormedId(parameter.name) : String(parameter.schema.example)])));
      const auth = operation.isAdmin ? bearer(TEST_ADMIN_TOKEN) : bearer(tenant.testKey);
      const response = await testApp.http[operation.method](path)
        .set(auth)
        .send({ ...(bodies[operation.key] ?? {}), [TYPO]: true });
      refusals.push({ operation: operation.key, status: response.status, code: response.body.error?.code, param: response.body.error?.param });
    }
    expect(refusals.filter((refusal) => refusal.status !== 400 || refusal.code !== 'INVALID_PARAMETER' || refusal.param !== TYPO)).toEqual([]);
  });

  it("a validator reading only the document refuses PATCH /v1/webhook-endpoints/{id} {enabled: false}, as the server does", async () => {
    const document = buildOpenApiDocument(testApp.app) as unknown as OpenAPIV3.Document;
    const operation = document.paths['/v1/webhook-endpoints/{endpoint_id}']?.patch as OpenAPIV3.OperationObject;
    const validator = new OpenAPIRequestValidator({
      parameters: operation.parameters as OpenAPIV3.ParameterObject[],
      requestBody: operation.requestBody as OpenAPIV3.RequestBodyObject,
      componentSchemas: document.components?.schemas as unknown as ComponentSchemas,
    });
    const endpointId = (
      await testApp.http.post('/v1/webhook-endpoints').set(bearer(tenant.testKey)).send({ url: LOOPBACK_WEBHOOK_URL, enabled_events: ['*'] }).expect(201)
    ).body.data.id as string;
    const request = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, params: { endpoint_id: endpointId }, query: {}, body });

    const typo = validator.validateRequest(request({ enabled: false }));
    expect(typo?.errors).toEqual([expect.objectContaining({ location: 'body', errorCode: 'additionalProperties.openapi.requestValidation' })]);
    // It is the document's `additionalProperties: false` that catches it: without it the typo passes.
    const schemas = structuredClone(document.components?.schemas) as Record<string, OpenAPIV3.SchemaObject>;
    delete schemas.UpdateWebhookEndpointDto.additionalProperties;
    const lenient = new OpenAPIRequestValidator({
      parameters: operation.parameters as OpenAPIV3.ParameterObject[],
      requestBody: operation.requestBody as OpenAPIV3.RequestBodyObject,
      componentSchemas: schemas as unknown as ComponentSchemas,
    });
    expect(lenient.validateRequest(request({ enabled: false }))).toBeUndefined();
    const served = await testApp.http.patch(`/v1/webhook-endpoints/${endpointId}`).set(bearer(tenant.testKey)).send({ enabled: false }).expect(400);
    expect(served.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'enabled' });

    // The field it meant passes both.
    expect(validator.validateRequest(request({ disabled: true }))).toBeUndefined();
    await testApp.http.patch(`/v1/webhook-endpoints/${endpointId}`).set(bearer(tenant.testKey)).send({ disabled: true }).expect(200);
  });
});
