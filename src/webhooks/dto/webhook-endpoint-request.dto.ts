import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDefined, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { EVENT_TYPES } from '../../database/domain-event';
import { IsOptionalNotNull } from '../../validation/is-optional-not-null.decorator';

export const ENABLED_EVENT_CHOICES = ['*', ...EVENT_TYPES] as const;
const EVENTS_MESSAGE = `enabled_events must be ["*"] or a list of: ${EVENT_TYPES.join(', ')}`;

export class CreateWebhookEndpointDto {
  @ApiProperty({ description: 'Where events are POSTed: http(s), https in live mode, a public host', example: 'https://example.com/webhooks/entitlements' })
  @IsDefined()
  @IsString()
  @MaxLength(2048)
  url: string;

  @ApiProperty({ description: '["*"] for every type, or the types to receive', type: [String], enum: ENABLED_EVENT_CHOICES, example: ['entitlement.revoked', 'entitlement.created'] })
  @IsDefined()
  @IsArray({ message: EVENTS_MESSAGE })
  @ArrayMinSize(1, { message: EVENTS_MESSAGE })
  @ArrayMaxSize(ENABLED_EVENT_CHOICES.length, { message: EVENTS_MESSAGE })
  @IsIn(ENABLED_EVENT_CHOICES, { each: true, message: EVENTS_MESSAGE })
  enabled_events: string[];

  @ApiPropertyOptional({ description: 'A note for people', maxLength: 500, example: 'Production fulfilment server' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;
}

export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({ description: 'New URL (checked like on creation)', example: 'https://example.com/webhooks/v2' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ description: '["*"] or the types to receive', type: [String], enum: ENABLED_EVENT_CHOICES, example: ['*'] })
  @IsOptionalNotNull()
  @IsArray({ message: EVENTS_MESSAGE })
  @ArrayMinSize(1, { message: EVENTS_MESSAGE })
  @ArrayMaxSize(ENABLED_EVENT_CHOICES.length, { message: EVENTS_MESSAGE })
  @IsIn(ENABLED_EVENT_CHOICES, { each: true, message: EVENTS_MESSAGE })
  enabled_events?: string[];

  @ApiPropertyOptional({ description: 'A note for people; null clears it', type: String, nullable: true, maxLength: 500, example: 'Staging' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @ApiPropertyOptional({ description: 'true stops deliveries; false resumes them (also after a 410 disabled the endpoint)', example: false })
  @IsOptionalNotNull()
  @IsBoolean()
  disabled?: boolean;
}
