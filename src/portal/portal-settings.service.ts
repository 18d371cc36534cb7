import { Injectable } from '@nestjs/common';
import type { Operation } from '../database/operation';
import type { Tenant } from '../database/tenant';
import { UnitOfWork } from '../database/unit-of-work';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { PortalSettingsResponseDto, UpdatePortalSettingsDto } from './dto/portal-settings.dto';
import type { PortalSettingsEntity } from './portal-settings.entity';
import { PortalSettingsChanges, PortalSettingsRepository } from './portal-settings.repository';

const BRANDING_URL_FIELDS = ['logo_url', 'support_url'] as const;

/** The portal's branding per merchant and mode (DESIGN §19). */
@Injectable()
export class PortalSettingsService {
  constructor(
    private readonly settings: PortalSettingsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async get(tenant: Tenant): Promise<PortalSettingsResponseDto> {
    return toResponse(await this.settings.find(this.unitOfWork.pool, tenant));
  }

  update(operation: Operation, body: UpdatePortalSettingsDto): Promise<PortalSettingsResponseDto> {
    const changes: PortalSettingsChanges = {};
    if (body.display_name !== undefined) changes.display_name = body.display_name;
    if (body.accent_color !== undefined) changes.accent_color = body.accent_color === null ? null : body.accent_color.toLowerCase();
    for (const field of BRANDING_URL_FIELDS) {
      const value = body[field];
      if (value !== undefined) changes[field] = value === null ? null : httpsUrl(field, value);
    }
    return this.unitOfWork.run(operation, async (tx) => toResponse(await this.settings.update(tx, operation.tenant, changes)));
  }
}

/** Logo and support page: https only, so the portal loads nothing an eavesdropper can swap and links to nothing but a web page. */
function httpsUrl(field: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, `${field} must be an absolute https URL`, field);
  }
  if (url.protocol !== 'https:') throw new ApiError(ErrorCode.INVALID_PARAMETER, `${field} must be an https URL`, field);
  if (url.username !== '' || url.password !== '') throw new ApiError(ErrorCode.INVALID_PARAMETER, `${field} must not carry credentials`, field);
  return url.toString();
}

export function toResponse(settings: PortalSettingsEntity | null): PortalSettingsResponseDto {
  return {
    display_name: settings?.display_name ?? null,
    accent_color: settings?.accent_color ?? null,
    logo_url: settings?.logo_url ?? null,
    support_url: settings?.support_url ?? null,
    updated_at: settings ? settings.updated_at.toISOString() : null,
  };
}
