import type { ImportResponseDto } from './dto/import-response.dto';
import type { EntitlementImportEntity } from './entitlement-import.entity';

export function toImportResponse(entitlementImport: EntitlementImportEntity): ImportResponseDto {
  return {
    id: entitlementImport.id,
    status: entitlementImport.status,
    total_rows: entitlementImport.total_rows,
    processed_rows: entitlementImport.processed_rows,
    granted: entitlementImport.granted,
    skipped: entitlementImport.skipped,
    failed: entitlementImport.failed,
    test_clock: entitlementImport.test_clock_id,
    errors: entitlementImport.errors.map((error) => ({ row: error.row, code: error.code, message: error.message })),
    created_at: entitlementImport.created_at.toISOString(),
    completed_at: entitlementImport.completed_at ? entitlementImport.completed_at.toISOString() : null,
  };
}
