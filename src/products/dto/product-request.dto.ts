import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath, PartialType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { IsOptionalNotNull } from '../../validation/is-optional-not-null.decorator';
import { IsMetadataObject } from '../../validation/metadata-object';
import { DELIVERY_METHODS, type DeliveryMethod, ENTITLEMENT_TYPES, type EntitlementType, PRODUCT_STATUSES, type ProductStatus } from '../product.entity';
import { ID_MAX_LENGTH, STORE_ID_MAX_LENGTH } from '../../validation/input-bounds';
import { USAGE_LIMIT_MAX } from '../../validation/input-bounds';

export const MAX_FILE_IDS = 100;
export const MAX_STORE_VARIANT_IDS = 100;
export const MAX_INCLUDED_PRODUCTS = 50;
/** The document's view of file ids in a config (FulfillmentConfigRequestDto's rules, which validate). */
const FILE_ID_ITEMS = { type: 'string', maxLength: ID_MAX_LENGTH } as const;
const MAX_DURATION_DAYS = 36_500;

/**
 * How access is delivered. Which fields apply depends on delivery_method: FILE → file_ids,
 * URL → access_url (https), INSTRUCTIONS → access_instructions. Fields of another method must be
 * absent or null (file_ids may be empty); the service checks that, with the merged result on PATCH.
 */
export class FulfillmentConfigRequestDto {
  @ApiProperty({ description: 'How access is delivered', enum: DELIVERY_METHODS, example: 'FILE' })
  @IsDefined()
  @IsIn(DELIVERY_METHODS)
  delivery_method: DeliveryMethod;

  @ApiPropertyOptional({
    description: `FILE: ids of this merchant's files (same mode), at most ${MAX_FILE_IDS}. Sets the product's files; default []`,
    type: [String],
    example: ['file_01jd8x3k2m4n5p6q7r8s9t0v1w'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_FILE_IDS)
  @IsString({ each: true })
  @MaxLength(STORE_ID_MAX_LENGTH, { each: true })
  file_ids?: string[] | null;

  @ApiPropertyOptional({ description: 'URL: where the customer is sent; must be https', type: String, nullable: true, example: 'https://course.example.com/enroll' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  access_url?: string | null;

  @ApiPropertyOptional({ description: 'INSTRUCTIONS: what the customer is told; required and non-empty', type: String, nullable: true, example: 'Redeem your code at example.com/redeem' })
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  access_instructions?: string | null;
}

/*
 * The document's view of fulfillment_config: one shape per delivery_method, told apart by it, so
 * a generated client builds only valid combinations. Validation runs on FulfillmentConfigRequestDto
 * (one class, checked again by the product rules, merged with the stored config on PATCH).
 */
const OTHER_METHOD_FIELD = { description: "Another method's field: absent or null", type: String, nullable: true, enum: [null] } as const;

export class FileFulfillmentConfigDto {
  @ApiProperty({ description: 'Files the customer downloads', enum: ['FILE'], example: 'FILE' })
  delivery_method: 'FILE';

  @ApiPropertyOptional({ description: `Ids of this merchant's files (same mode), at most ${MAX_FILE_IDS}; default []`, type: 'array', items: FILE_ID_ITEMS, maxItems: MAX_FILE_IDS, example: [] })
  file_ids?: string[] | null;

  @ApiPropertyOptional(OTHER_METHOD_FIELD)
  access_url?: null;

  @ApiPropertyOptional(OTHER_METHOD_FIELD)
  access_instructions?: null;
}

export class UrlFulfillmentConfigDto {
  @ApiProperty({ description: 'The customer is sent to a URL', enum: ['URL'], example: 'URL' })
  delivery_method: 'URL';

  @ApiProperty({ description: 'Where the customer is sent; must be https', maxLength: 2048, pattern: '^https://', example: 'https://course.example.com/enroll' })
  access_url: string;

  @ApiPropertyOptional({ description: 'Must be absent, null or empty', type: 'array', items: FILE_ID_ITEMS, maxItems: 0, nullable: true, example: [] })
  file_ids?: string[] | null;

  @ApiPropertyOptional(OTHER_METHOD_FIELD)
  access_instructions?: null;
}

export class InstructionsFulfillmentConfigDto {
  @ApiProperty({ description: 'The customer is told what to do', enum: ['INSTRUCTIONS'], example: 'INSTRUCTIONS' })
  delivery_method: 'INSTRUCTIONS';

  @ApiProperty({ description: 'What the customer is told; non-empty', minLength: 1, maxLength: 10_000, example: 'Redeem your code at example.com/redeem' })
  access_instructions: string;

  @ApiPropertyOptional({ description: 'Must be absent, null or empty', type: 'array', items: FILE_ID_ITEMS, maxItems: 0, nullable: true, example: [] })
  file_ids?: string[] | null;

  @ApiPropertyOptional(OTHER_METHOD_FIELD)
  access_url?: null;
}

export const MAX_ACTIVATION_LIMIT = 100_000;
export const MIN_ACTIVATION_TTL_SECONDS = 60;
export const MAX_ACTIVATION_TTL_SECONDS = 2_592_000;

/** `license` of a product (DESIGN §18): each entitlement granted for it gets a license key. */
export class LicenseConfigRequestDto {
  @ApiPropertyOptional({ description: `Devices one key may be active on at once, 1..${MAX_ACTIVATION_LIMIT}; null or absent = unlimited. PATCH /v1/license-keys/{id} changes one customer's own limit`, type: Number, nullable: true, minimum: 1, maximum: MAX_ACTIVATION_LIMIT, example: 3 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ACTIVATION_LIMIT)
  activation_limit?: number | null;

  @ApiPropertyOptional({
    description: `Floating seats: an activation not seen (activate or heartbeat) for this many seconds (${MIN_ACTIVATION_TTL_SECONDS}..${MAX_ACTIVATION_TTL_SECONDS}) is released; null or absent = activations last until deactivated`,
    type: Number,
    nullable: true,
    minimum: MIN_ACTIVATION_TTL_SECONDS,
    maximum: MAX_ACTIVATION_TTL_SECONDS,
    example: null,
  })
  @IsOptional()
  @IsInt()
  @Min(MIN_ACTIVATION_TTL_SECONDS)
  @Max(MAX_ACTIVATION_TTL_SECONDS)
  activation_ttl_seconds?: number | null;
}

const FULFILLMENT_CONFIG_UNION = {
  oneOf: [
    { $ref: getSchemaPath(FileFulfillmentConfigDto) },
    { $ref: getSchemaPath(UrlFulfillmentConfigDto) },
    { $ref: getSchemaPath(InstructionsFulfillmentConfigDto) },
  ],
  discriminator: {
    propertyName: 'delivery_method',
    mapping: {
      FILE: getSchemaPath(FileFulfillmentConfigDto),
      URL: getSchemaPath(UrlFulfillmentConfigDto),
      INSTRUCTIONS: getSchemaPath(InstructionsFulfillmentConfigDto),
    },
  },
};

/** Body of POST /v1/products. */
@ApiExtraModels(FileFulfillmentConfigDto, UrlFulfillmentConfigDto, InstructionsFulfillmentConfigDto)
export class CreateProductDto {
  @ApiProperty({ description: 'Product name; leading and trailing spaces are dropped, and it may not be blank', minLength: 1, maxLength: 255, example: 'The Field Guide (ebook)' })
  @IsDefined()
  // Stored trimmed: "  " is no name, and " Guide " is "Guide".
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @MinLength(1, { message: 'name must not be blank' })
  @MaxLength(255)
  name: string;

  @ApiProperty({ description: 'What a grant gives (a later change affects future grants only; fields of the old type are cleared)', enum: ENTITLEMENT_TYPES, example: 'time_limited' })
  @IsDefined()
  @IsIn(ENTITLEMENT_TYPES)
  entitlement_type: EntitlementType;

  @ApiPropertyOptional({ description: 'Description; default "" on create', maxLength: 5000, example: 'PDF and EPUB editions' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(5000)
  description?: string;

  @ApiPropertyOptional({ description: 'Product id in the e-commerce platform; unique per merchant and mode; null for none (PATCH: clears it)', type: String, nullable: true, example: 'sku_ebook_42' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_product_id?: string | null;

  @ApiPropertyOptional({ description: 'Variant ids in the e-commerce platform; default [] on create; PATCH replaces the list', type: [String], example: ['sku_ebook_42_pdf'] })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_STORE_VARIANT_IDS)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(STORE_ID_MAX_LENGTH, { each: true })
  store_variant_ids?: string[];

  @ApiPropertyOptional({
    description:
      `Makes the product a bundle: ids of up to ${MAX_INCLUDED_PRODUCTS} other products of this merchant and mode (not archived, not bundles ` +
      'themselves, not this product) granted with it as child entitlements (source bundle). Default [] on create; PATCH replaces ' +
      'the list and affects later grants only',
    type: [String],
    example: [],
  })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_INCLUDED_PRODUCTS)
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(STORE_ID_MAX_LENGTH, { each: true })
  included_product_ids?: string[];

  @ApiPropertyOptional({
    description: 'Days of access from the grant. Required (≥ 1) when entitlement_type is time_limited; must be absent or null otherwise',
    type: Number,
    nullable: true,
    minimum: 1,
    example: 365,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_DURATION_DAYS)
  access_duration_days?: number | null;

  @ApiPropertyOptional({
    description: 'Uses a grant allows. Required (≥ 1) when entitlement_type is usage_limited; must be absent or null otherwise',
    type: Number,
    nullable: true,
    minimum: 1,
    example: null,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(USAGE_LIMIT_MAX)
  usage_limit?: number | null;

  @ApiPropertyOptional({ description: 'Arbitrary JSON object, at most 16 KiB serialized; default {} on create; PATCH replaces it', type: 'object', additionalProperties: true, example: { isbn: '978-0-00-000000-0' } })
  @IsOptionalNotNull()
  @IsMetadataObject()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({
    description:
      'How access is delivered, by delivery_method; default {"delivery_method": "FILE", "file_ids": []} on create (files can be linked later, e.g. by upload-url with product_id); PATCH replaces it, file_ids included',
    // An explicit type, or Nest would add the validation class as an allOf beside the union.
    type: 'object',
    properties: {},
    ...FULFILLMENT_CONFIG_UNION,
  })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => FulfillmentConfigRequestDto)
  fulfillment_config?: FulfillmentConfigRequestDto;

  // OpenAPI 3.0 ignores `nullable` beside a $ref, so the shape is spelled inline (LicenseConfigRequestDto validates).
  @ApiPropertyOptional({
    description:
      'License keys (DESIGN §18): when set, every entitlement granted for this product, from any source, gets a license key in the same transaction. null or absent = no keys; PATCH affects later grants only',
    type: 'object',
    nullable: true,
    properties: {
      activation_limit: {
        type: 'integer',
        nullable: true,
        minimum: 1,
        maximum: MAX_ACTIVATION_LIMIT,
        description: `Devices one key may be active on at once, 1..${MAX_ACTIVATION_LIMIT}; null or absent = unlimited. PATCH /v1/license-keys/{id} changes one customer's own limit`,
        example: 3,
      },
      activation_ttl_seconds: {
        type: 'integer',
        nullable: true,
        minimum: MIN_ACTIVATION_TTL_SECONDS,
        maximum: MAX_ACTIVATION_TTL_SECONDS,
        description: `Floating seats: an activation not seen (activate or heartbeat) for this many seconds is released; null or absent = activations last until deactivated`,
        example: null,
      },
    },
    example: { activation_limit: 3, activation_ttl_seconds: null },
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => LicenseConfigRequestDto)
  license?: LicenseConfigRequestDto | null;
}

/**
 * Body of PATCH /v1/products/{id}: the create body with every field optional (an absent field is
 * kept; a null is refused where the create body refuses it), plus `status`. metadata,
 * store_variant_ids and fulfillment_config are replaced as a whole. Type-dependent fields are
 * checked on the result.
 */
export class UpdateProductDto extends PartialType(CreateProductDto, { skipNullProperties: false }) {
  @ApiPropertyOptional({ description: '`active` un-archives an archived product; `archived` is the same as DELETE', enum: PRODUCT_STATUSES, example: 'active' })
  @IsOptionalNotNull()
  @IsIn(PRODUCT_STATUSES)
  status?: ProductStatus;
}
