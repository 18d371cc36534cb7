import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { getMetadataArgsStorage } from 'typeorm';
import { ENTITIES } from '../../src/app-entities';

/**
 * DESIGN §1, one owner per table: which module (the folder under src/) owns which tables. A new
 * table needs a line here, and only its owner's files may name it.
 */
export const TABLE_OWNERS: Readonly<Record<string, readonly string[]>> = {
  auth: ['merchants', 'api_keys', 'server_secrets'],
  products: ['products', 'product_files', 'product_bundle_items'],
  'customer-records': ['customers'],
  entitlements: ['entitlements'],
  files: ['files', 'downloads'],
  billing: ['storage_usage', 'storage_reservations', 'bandwidth_usage', 'usage_statements', 'bandwidth_thresholds'],
  webhooks: ['events', 'webhook_endpoints', 'webhook_deliveries', 'webhook_delivery_attempts'],
  idempotency: ['idempotency_keys'],
  'grant-rules': ['grant_rules'],
  orders: ['orders', 'order_line_items'],
  subscriptions: ['subscriptions'],
  'test-clock-records': ['test_clocks'],
  'license-records': ['license_keys', 'license_activations'],
  audit: ['audit_log'],
  imports: ['entitlement_imports', 'import_rows'],
  dashboard: ['dashboard_users', 'dashboard_setup_links', 'dashboard_sessions'],
  portal: ['portal_sessions', 'portal_settings'],
};

export const SOURCE_ROOT = path.resolve(__dirname, '../../src');

/** Methods whose string arguments name tables or relations (query builders, managers, raw SQL). */
const QUERY_METHODS = new Set([
  'query',
  'from',
  'into',
  'update',
  'delete',
  'insert',
  'createQueryBuilder',
  'getRepository',
  'innerJoin',
  'leftJoin',
  'innerJoinAndSelect',
  'leftJoinAndSelect',
  'innerJoinAndMapOne',
  'leftJoinAndMapOne',
  'innerJoinAndMapMany',
  'leftJoinAndMapMany',
]);
const JOIN_METHODS = new Set([...QUERY_METHODS].filter((name) => /Join/.test(name)));
/** Table names after SQL keywords, in any string or template text. */
const SQL_TABLE = /\b(?:from|join|into|update|table)\s+(?:only\s+)?"?([a-z_][a-z0-9_]*)"?/gi;

export interface EntityInfo {
  className: string;
  table: string;
  /** Relation property → the related entity's table (base-class relations included). */
  relations: Map<string, string>;
}

/** Every entity's class name, table and relations, from TypeORM's metadata. */
export function entityCatalogue(): EntityInfo[] {
  const storage = getMetadataArgsStorage();
  const tableOf = (target: unknown): string | undefined => storage.tables.find((table) => table.target === target)?.name;
  return ENTITIES.map((entity) => {
    const table = tableOf(entity);
    if (!table) throw new Error(`Entity ${entity.name} has no @Entity table name`);
    const relations = new Map<string, string>();
    for (const relation of storage.relations) {
      const target = relation.target as unknown;
      if (target !== entity && !(typeof target === 'function' && entity.prototype instanceof target)) continue;
      const related = typeof relation.type === 'function' ? (relation.type as () => unknown)() : relation.type;
      const relatedTable = tableOf(related);
      if (relatedTable) relations.set(relation.propertyName, relatedTable);
    }
    return { className: entity.name, table, relations };
  });
}

export function ownerOf(table: string): string | undefined {
  return Object.entries(TABLE_OWNERS).find(([, tables]) => tables.includes(table))?.[0];
}

/** The module (top folder under src/) of a path relative to src/; files directly in src/ are the app's. */
export function moduleOf(relativePath: string): string {
  const parts = relativePath.split(/[\\/]/);
  return parts.length > 1 ? parts[0] : 'app';
}

export interface Violation {
  file: string;
  table: string;
  how: string;
}

function isInTypePosition(node: ts.Node): boolean {
  for (let current: ts.Node | undefined = node.parent; current; current = current.parent) {
    if (ts.isTypeNode(current) || ts.isImportDeclaration(current) || ts.isExportDeclaration(current) || ts.isInterfaceDeclaration(current) || ts.isTypeAliasDeclaration(current)) {
      return true;
    }
    if (ts.isExpressionWithTypeArguments(current) && current.parent && ts.isHeritageClause(current.parent)) return false;
  }
  return false;
}

function isInsideDecorator(node: ts.Node): boolean {
  for (let current: ts.Node | undefined = node.parent; current; current = current.parent) if (ts.isDecorator(current)) return true;
  return false;
}

function calledMethod(node: ts.Node): string | null {
  const call = node.parent;
  if (!call || !ts.isCallExpression(call) || !call.arguments.includes(node as ts.Expression)) return null;
  if (ts.isPropertyAccessExpression(call.expression)) return call.expression.name.text;
  if (ts.isIdentifier(call.expression)) return call.expression.text;
  return null;
}

/**
 * The tables a source file names, each with how: raw SQL text, a table name passed to a query
 * method, an entity class used as a value (manager.find(Entity…), createQueryBuilder(Entity…),
 * .into(Entity)…), or a relation joined or loaded by name. Entity files' decorators declare the
 * schema (foreign keys) and are not queries.
 */
export function tablesNamedIn(relativePath: string, source: string, catalogue: EntityInfo[]): Array<{ table: string; how: string }> {
  const tables = new Set(catalogue.map((entity) => entity.table));
  const entityByClass = new Map(catalogue.map((entity) => [entity.className, entity]));
  // Several entities may share a relation name (`customer`): each table once.
  const relationTables = (property: string) => [
    ...new Set(catalogue.flatMap((entity) => (entity.relations.has(property) ? [entity.relations.get(property) as string] : []))),
  ];
  const found: Array<{ table: string; how: string }> = [];
  const file = ts.createSourceFile(relativePath, source, ts.ScriptTarget.ES2022, true);
  const isEntityFile = relativePath.endsWith('.entity.ts');

  const visitText = (node: ts.Node, text: string) => {
    for (const match of text.matchAll(SQL_TABLE)) {
      const name = match[1].toLowerCase();
      if (tables.has(name)) found.push({ table: name, how: `SQL "${match[0].trim()}"` });
    }
    const method = calledMethod(node);
    if (method && QUERY_METHODS.has(method) && tables.has(text)) found.push({ table: text, how: `${method}('${text}')` });
    const relationPath = /^\w+\.(\w+)$/.exec(text);
    if (method && JOIN_METHODS.has(method) && relationPath) {
      for (const table of relationTables(relationPath[1])) found.push({ table, how: `${method}('${text}')` });
    }
  };

  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      visitText(node, node.text);
    } else if (ts.isTemplateExpression(node)) {
      visitText(node, [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ? '));
    } else if (ts.isIdentifier(node) && entityByClass.has(node.text) && !isInTypePosition(node)) {
      const isDeclaration = ts.isClassDeclaration(node.parent) && node.parent.name === node;
      if (!isDeclaration && !(isEntityFile && isInsideDecorator(node))) {
        found.push({ table: (entityByClass.get(node.text) as EntityInfo).table, how: `entity ${node.text}` });
      }
    } else if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'relations' && ts.isObjectLiteralExpression(node.initializer)) {
      for (const property of node.initializer.properties) {
        if (property.name && ts.isIdentifier(property.name)) {
          for (const table of relationTables(property.name.text)) found.push({ table, how: `relations: { ${property.name.text} }` });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Imports of another module's repository: a module reaches others' tables only through their services. */
export function foreignRepositoryImports(relativePath: string, source: string): string[] {
  const file = ts.createSourceFile(relativePath, source, ts.ScriptTarget.ES2022, true);
  const own = moduleOf(relativePath);
  return file.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return [];
    const specifier = statement.moduleSpecifier.text;
    if (!specifier.startsWith('.') || !specifier.endsWith('.repository')) return [];
    const target = path.relative(SOURCE_ROOT, path.resolve(SOURCE_ROOT, path.dirname(relativePath), specifier));
    return moduleOf(target) === own ? [] : [specifier];
  });
}

/**
 * Not scanned: the migrations, which create and move every table, and the entity registry the
 * data source is built from (it lists every entity class, and runs nothing).
 */
const SCHEMA_FILES = [path.join('database', 'migrations'), 'app-entities.ts'];

/** Every TypeScript source under src/ but the schema files, relative to src/. */
export function sourceFiles(directory = SOURCE_ROOT): string[] {
  return readdirSync(directory).flatMap((name) => {
    const full = path.join(directory, name);
    if (SCHEMA_FILES.includes(path.relative(SOURCE_ROOT, full))) return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') ? [path.relative(SOURCE_ROOT, full)] : [];
  });
}

/** Every place a module names a table it does not own. */
export function ownershipViolations(files: Array<{ path: string; source: string }>, catalogue: EntityInfo[]): Violation[] {
  return files.flatMap(({ path: file, source }) => {
    const module = moduleOf(file);
    const tables = tablesNamedIn(file, source, catalogue)
      .filter(({ table }) => ownerOf(table) !== module)
      .map(({ table, how }) => ({ file, table, how }));
    const repositories = foreignRepositoryImports(file, source).map((specifier) => ({ file, table: '(repository)', how: `import '${specifier}'` }));
    return [...tables, ...repositories];
  });
}

export function readSources(): Array<{ path: string; source: string }> {
  return sourceFiles().map((file) => ({ path: file, source: readFileSync(path.join(SOURCE_ROOT, file), 'utf8') }));
}
