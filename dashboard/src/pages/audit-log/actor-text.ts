import type { Schemas } from '../../api/client';

/** Who acted, as a person reads it: the user's email, the key's prefix, the admin token, the CLI, a customer in the portal. */
export function actorText(entry: Pick<Schemas['AuditEntryResponseDto'], 'actor'>): string {
  switch (entry.actor.type) {
    case 'user':
      return entry.actor.label;
    case 'api_key':
      return `API key ${entry.actor.label}…`;
    case 'admin':
      return 'Admin token';
    case 'customer':
      return `Customer ${entry.actor.label} (portal)`;
    default:
      return entry.actor.label;
  }
}
