import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { PageRequest } from './page';

/**
 * Newest-first keyset page on (sortColumn, id): rows strictly after the cursor, limit + 1 of them.
 * Timestamps are stored with millisecond precision, so the cursor's ISO value compares exactly.
 */
export function applyKeysetPage<Entity extends ObjectLiteral>(
  query: SelectQueryBuilder<Entity>,
  alias: string,
  page: PageRequest,
  sortColumn = 'created_at',
): SelectQueryBuilder<Entity> {
  if (page.after) {
    query.andWhere(`(${alias}.${sortColumn}, ${alias}.id) < (:cursorAt, :cursorId)`, {
      cursorAt: page.after.at,
      cursorId: page.after.id,
    });
  }
  return query
    .orderBy(`${alias}.${sortColumn}`, 'DESC')
    .addOrderBy(`${alias}.id`, 'DESC')
    .limit(page.limit + 1);
}

/**
 * One keyset page (limit + 1 rows) and the total of all matches. The total is a plain COUNT(*)
 * (TypeORM's getCount() counts DISTINCT ids, far slower on large sets); base() must not join
 * one-to-many, so every row is one match.
 */
export async function fetchPageWithTotal<Entity extends ObjectLiteral>(
  base: () => SelectQueryBuilder<Entity>,
  alias: string,
  page: PageRequest,
  sortColumn = 'created_at',
): Promise<{ rows: Entity[]; total: number }> {
  const [rows, count] = await Promise.all([
    applyKeysetPage(base(), alias, page, sortColumn).getMany(),
    base().select('COUNT(*)', 'total').getRawOne<{ total: string }>(),
  ]);
  return { rows, total: Number(count?.total ?? 0) };
}
