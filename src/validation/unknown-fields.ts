/*
 * Unknown fields are refused, never dropped (DESIGN §4, §20): a typo'd field is a 400 naming it,
 * not a request that silently did less than asked. The validation pipe takes its options from
 * here, and the OpenAPI document writes `additionalProperties: false` on every request body these
 * rules close, so clients, mocks and validating proxies catch the same typo the server does.
 */

/** class-validator's options that make a DTO closed: fields it doesn't declare are 400 INVALID_PARAMETER. */
export const UNKNOWN_FIELD_OPTIONS = { whitelist: true, forbidNonWhitelisted: true } as const;

/** Whether the validation pipe refuses the fields a validated DTO doesn't declare. */
export const VALIDATED_BODIES_REFUSE_UNKNOWN_FIELDS = UNKNOWN_FIELD_OPTIONS.whitelist && UNKNOWN_FIELD_OPTIONS.forbidNonWhitelisted;

/**
 * Request schemas checked by a parser of their own rather than by class-validator, which refuse
 * unknown fields too: an import's JSON body (`rows`, `test_clock`: a 400), and fulfillment_config's
 * per-method shapes (validated as one class, FulfillmentConfigRequestDto, whose fields each shape
 * lists). Not an import's JSON row: its unknown key fails that row in the import's report, while
 * the import itself is accepted (202), and the document must accept whatever the service does.
 */
export const CLOSED_BY_OWN_PARSER: ReadonlySet<string> = new Set([
  'CreateImportDto',
  'FileFulfillmentConfigDto',
  'UrlFulfillmentConfigDto',
  'InstructionsFulfillmentConfigDto',
]);
