import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { ReadPart } from '../database/combined-statement';
import type { Tenant } from '../database/tenant';
import { TenantTable } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { ProductFileEntity } from './product-file.entity';

/** SQL of product_files: the product–file links, ordered by position. */
@Injectable()
export class ProductFilesRepository {
  private readonly table = new TenantTable(ProductFileEntity, 'link');

  /** The product's file ids, in order. */
  async fileIdsOf(db: Reader, tenant: Tenant, productId: string): Promise<string[]> {
    return (await this.fileIdsOfProducts(db, tenant, [productId])).get(productId) ?? [];
  }

  /** Each product's file ids, in order (products without links are absent). */
  async fileIdsOfProducts(db: Reader, tenant: Tenant, productIds: string[]): Promise<Map<string, string[]>> {
    const result = new Map<string, string[]>();
    if (productIds.length === 0) return result;
    const links = await this.table.find(db.manager, tenant, { product_id: In(productIds) }, { product_id: 'ASC', position: 'ASC' });
    for (const link of links) result.set(link.product_id, [...(result.get(link.product_id) ?? []), link.file_id]);
    return result;
  }

  /** For each of `fileIds` that is linked, the product of its oldest link. */
  async firstProductOfFiles(db: Reader, tenant: Tenant, fileIds: string[]): Promise<Map<string, string>> {
    const result = new Map<string, string>();
    if (fileIds.length === 0) return result;
    const links = await this.table.find(db.manager, tenant, { file_id: In(fileIds) }, { created_at: 'ASC', product_id: 'ASC' });
    for (const link of links) if (!result.has(link.file_id)) result.set(link.file_id, link.product_id);
    return result;
  }

  /** The products linked to the file, by id. */
  async productIdsOfFile(db: Reader, tenant: Tenant, fileId: string): Promise<string[]> {
    const links = await this.table.find(db.manager, tenant, { file_id: fileId }, { product_id: 'ASC' });
    return links.map((link) => link.product_id);
  }

  /** The products linked to the file, as a part of a combined read. */
  productIdsOfFilePart(tenant: Tenant, fileId: string): ReadPart<string[]> {
    return {
      render: (parameters) =>
        `SELECT coalesce(jsonb_agg(link.product_id), '[]'::jsonb) FROM product_files link
          WHERE link.merchant_id = ${parameters.text(tenant.merchantId)} AND link.mode = ${parameters.text(tenant.mode)} AND link.file_id = ${parameters.text(fileId)}`,
      parse: (value) => (Array.isArray(value) ? value.map(String) : []),
    };
  }

  async has(tx: Transaction, tenant: Tenant, productId: string, fileId: string): Promise<boolean> {
    return (await this.table.findOne(tx.manager, tenant, { product_id: productId, file_id: fileId })) !== null;
  }

  /** Makes `fileIds` the product's links, in that order; links that stay keep their age. */
  async replace(tx: Transaction, tenant: Tenant, productId: string, fileIds: string[]): Promise<void> {
    const current = await this.table.find(tx.manager, tenant, { product_id: productId });
    const kept = new Map(current.map((link) => [link.file_id, link.created_at]));
    await this.table.delete(tx.manager, tenant, { product_id: productId });
    for (const [position, fileId] of fileIds.entries()) {
      await this.table.insert(tx.manager, tenant, { product_id: productId, file_id: fileId, position, created_at: kept.get(fileId) });
    }
  }

  /** Links the file after the product's others. Call with the product locked, so positions don't collide. */
  async append(tx: Transaction, tenant: Tenant, productId: string, fileId: string): Promise<void> {
    const last = await this.table
      .select(tx.manager, tenant)
      .andWhere('link.product_id = :productId', { productId })
      .select('MAX(link.position)', 'position')
      .getRawOne<{ position: number | null }>();
    await this.table.insert(tx.manager, tenant, { product_id: productId, file_id: fileId, position: (last?.position ?? -1) + 1 });
  }
}
