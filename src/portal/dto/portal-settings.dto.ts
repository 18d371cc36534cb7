import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

export const DISPLAY_NAME_MAX_LENGTH = 100;
export const BRANDING_URL_MAX_LENGTH = 2048;
/** `#rrggbb`: the one colour form every browser and the portal's contrast rule read alike. */
export const ACCENT_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/** Body of PATCH /v1/portal-settings: each field given is set, null clears it, an absent one keeps its value. */
export class UpdatePortalSettingsDto {
  @ApiPropertyOptional({ description: "The name the portal shows in its header (null: the merchant's name)", example: 'Field Sketching Co.', nullable: true, type: String, maxLength: DISPLAY_NAME_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(DISPLAY_NAME_MAX_LENGTH)
  display_name?: string | null;

  @ApiPropertyOptional({ description: 'The colour of buttons and links, as #rrggbb (null: the default blue)', example: '#0a7d45', nullable: true, type: String, pattern: '^#[0-9a-fA-F]{6}$', maxLength: 7 })
  @IsOptional()
  @IsString()
  @Matches(ACCENT_COLOR_PATTERN, { message: 'accent_color must be a colour as #rrggbb' })
  accent_color?: string | null;

  @ApiPropertyOptional({ description: 'An https image URL shown in the header (null: none)', example: 'https://shop.example.com/logo.png', nullable: true, type: String, maxLength: BRANDING_URL_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_URL_MAX_LENGTH)
  logo_url?: string | null;

  @ApiPropertyOptional({ description: 'An https page where customers get help, linked from the portal (null: none)', example: 'https://shop.example.com/help', nullable: true, type: String, maxLength: BRANDING_URL_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_URL_MAX_LENGTH)
  support_url?: string | null;
}

export class PortalSettingsResponseDto {
  @ApiProperty({ description: "The name the portal shows; null: the merchant's name", example: 'Field Sketching Co.', nullable: true, type: String })
  display_name: string | null;

  @ApiProperty({ description: 'The accent colour as #rrggbb; null: the default', example: '#0a7d45', nullable: true, type: String, maxLength: 7 })
  accent_color: string | null;

  @ApiProperty({ description: 'The https logo URL, or null', example: 'https://shop.example.com/logo.png', nullable: true, type: String })
  logo_url: string | null;

  @ApiProperty({ description: 'The https support page, or null', example: 'https://shop.example.com/help', nullable: true, type: String })
  support_url: string | null;

  @ApiProperty({ description: 'When the settings were last changed; null while never changed', example: '2026-11-22T13:06:00.000Z', nullable: true, type: String })
  updated_at: string | null;
}
