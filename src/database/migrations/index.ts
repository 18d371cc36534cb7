// Written by scripts/migration-generate.ts: every migration, in order.
import { Initial1795353159306 } from './1795353159306-Initial';

export const MIGRATIONS = [Initial1795353159306];
