import type { AuditEntryEntity } from './audit-entry.entity';
import { AuditEntryResponseDto } from './dto/audit-entry-response.dto';

export function toAuditEntryResponse(entity: AuditEntryEntity): AuditEntryResponseDto {
  return {
    id: entity.id,
    created_at: entity.created_at.toISOString(),
    actor: { type: entity.actor_type, id: entity.actor_id, label: entity.actor_label },
    action: entity.action,
    object: { type: entity.object_type, id: entity.object_id },
    mode: entity.mode,
    request_id: entity.request_id,
    client_address: entity.client_address,
    status: entity.status,
  };
}
