import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
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
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsMetadataObject } from '../../entitlements/dto/entitlement-validators';
import { DELIVERY_METHODS, type DeliveryMethod, ENTITLEMENT_TYPES, type EntitlementType, PRODUCT_STATUSES, type ProductStatus } from '../product.entity';

export const MAX_FILE_IDS = 100;
export const MAX_STORE_VARIANT_IDS = 100;
const MAX_STORE_ID_LENGTH = 255;
const MAX_DURATION_DAYS = 36_500;
const MAX_USAGE_LIMIT = 2_000_000_000;

/** Optional, but not null: `null` fails the field's other rules (only some fields can be cleared). */
const IsOptionalNotNull = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

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

/** Body of POST /v1/products. */
export class CreateProductDto {
  @ApiProperty({ description: 'Product name', minLength: 1, maxLength: 255, example: 'The Field Guide (ebook)' })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name: string;

  @ApiProperty({ description: 'What a grant gives', enum: ENTITLEMENT_TYPES, example: 'time_limited' })
  @IsDefined()
  @IsIn(ENTITLEMENT_TYPES)
  entitlement_type: EntitlementType;

  @ApiPropertyOptional({ description: 'Description; default ""', maxLength: 5000, example: 'PDF and EPUB editions' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(5000)
  description?: string;

  @ApiPropertyOptional({ description: 'Product id in the e-commerce platform; unique per merchant and mode', type: String, nullable: true, example: 'sku_ebook_42' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_STORE_ID_LENGTH)
  store_product_id?: string | null;

  @ApiPropertyOptional({ description: 'Variant ids in the e-commerce platform; default []', type: [String], example: ['sku_ebook_42_pdf'] })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_STORE_VARIANT_IDS)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(MAX_STORE_ID_LENGTH, { each: true })
  store_variant_ids?: string[];

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
  @Max(MAX_USAGE_LIMIT)
  usage_limit?: number | null;

  @ApiPropertyOptional({ description: 'Arbitrary JSON object, at most 16 KiB serialized; default {}', type: 'object', additionalProperties: true, example: { isbn: '978-0-00-000000-0' } })
  @IsOptionalNotNull()
  @IsMetadataObject()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({
    description: 'How access is delivered; default {"delivery_method": "FILE", "file_ids": []} (files can be linked later, e.g. by upload-url with product_id)',
    type: FulfillmentConfigRequestDto,
  })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => FulfillmentConfigRequestDto)
  fulfillment_config?: FulfillmentConfigRequestDto;
}

/**
 * Body of PATCH /v1/products/{id}: only the fields sent change. metadata, store_variant_ids and
 * fulfillment_config are replaced as a whole. Type-dependent fields are checked on the result.
 */
export class UpdateProductDto {
  @ApiPropertyOptional({ description: 'Product name', minLength: 1, maxLength: 255, example: 'The Field Guide, 2nd edition (ebook)' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({
    description: 'What future grants give (existing entitlements keep their terms). Fields of the old type are cleared',
    enum: ENTITLEMENT_TYPES,
    example: 'permanent',
  })
  @IsOptionalNotNull()
  @IsIn(ENTITLEMENT_TYPES)
  entitlement_type?: EntitlementType;

  @ApiPropertyOptional({ description: 'Description', maxLength: 5000, example: 'PDF, EPUB and audiobook editions' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(5000)
  description?: string;

  @ApiPropertyOptional({ description: 'Product id in the e-commerce platform; null clears it', type: String, nullable: true, example: 'sku_ebook_42' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_STORE_ID_LENGTH)
  store_product_id?: string | null;

  @ApiPropertyOptional({ description: 'Variant ids (replaces the list)', type: [String], example: ['sku_ebook_42_pdf', 'sku_ebook_42_epub'] })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_STORE_VARIANT_IDS)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(MAX_STORE_ID_LENGTH, { each: true })
  store_variant_ids?: string[];

  @ApiPropertyOptional({ description: 'Days of access (time_limited only)', type: Number, nullable: true, minimum: 1, example: 30 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_DURATION_DAYS)
  access_duration_days?: number | null;

  @ApiPropertyOptional({ description: 'Uses a grant allows (usage_limited only)', type: Number, nullable: true, minimum: 1, example: null })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_USAGE_LIMIT)
  usage_limit?: number | null;

  @ApiPropertyOptional({ description: 'Arbitrary JSON object, at most 16 KiB serialized (replaces the old one)', type: 'object', additionalProperties: true, example: { edition: 2 } })
  @IsOptionalNotNull()
  @IsMetadataObject()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'How access is delivered (replaces the old config, file_ids included)', type: FulfillmentConfigRequestDto })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => FulfillmentConfigRequestDto)
  fulfillment_config?: FulfillmentConfigRequestDto;

  @ApiPropertyOptional({ description: '`active` un-archives an archived product; `archived` is the same as DELETE', enum: PRODUCT_STATUSES, example: 'active' })
  @IsOptionalNotNull()
  @IsIn(PRODUCT_STATUSES)
  status?: ProductStatus;
}
