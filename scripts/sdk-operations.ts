/**
 * Renders sdk/src/generated/operations.ts from openapi.json: the SDK's resource groups (one per
 * operationId prefix, `entitlements.check` → `client.entitlements.check`), as a runtime table the
 * client builds its methods from and as typed interfaces with each operation's documentation. A
 * route added to the service reaches the SDK by `npm run openapi:generate && npm run sdk:generate`,
 * with nothing written by hand.
 */

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
}

interface MediaType {
  schema?: Schema;
  examples?: Record<string, { value?: { error?: { code?: string } } }>;
}

interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  allOf?: Schema[];
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  tags?: Array<{ name: string; description?: string }>;
  components?: { schemas?: Record<string, Schema> };
}

/** Names the client keeps for its own helpers: a group of the document must not take them. */
const RESERVED_GROUPS = new Set(['raw', 'tokens', 'webhooks', 'options']);
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const JSON_TYPE = 'application/json';
const CSV_TYPE = 'text/csv';
const IDEMPOTENCY_HEADER = 'idempotency-key';
const BODY_IDEMPOTENCY_FIELD = 'idempotency_key';

interface Described {
  id: string;
  group: string;
  name: string;
  method: string;
  path: string;
  pathParameters: string[];
  query: { present: boolean; required: boolean };
  body: { present: boolean; required: boolean; contentTypes: string[] };
  successStatuses: string[];
  paginated: boolean;
  credential: 'apiKey' | 'adminToken' | null;
  idempotency: 'none' | 'header' | 'headerOrBody';
  errorCodes: string[];
  operation: Operation;
}

function camelCase(name: string): string {
  return name.replace(/[-_]([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

function pascalCase(name: string): string {
  const camel = camelCase(name);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

function resolve(document: OpenApiDocument, schema: Schema | undefined): Schema | undefined {
  if (!schema?.$ref) return schema;
  return document.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')];
}

function propertiesOf(document: OpenApiDocument, schema: Schema | undefined): Record<string, Schema> {
  const resolved = resolve(document, schema);
  if (!resolved) return {};
  return Object.assign({}, resolved.properties, ...(resolved.allOf ?? []).map((part) => propertiesOf(document, part)));
}

function credentialOf(operation: Operation): Described['credential'] {
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes('admin_token')) return 'adminToken';
  if (schemes.includes('api_key')) return 'apiKey';
  return null;
}

function describe(document: OpenApiDocument, path: string, method: string, operation: Operation): Described {
  const id = operation.operationId;
  if (!id || !/^[a-z][A-Za-z0-9]*\.[a-z][A-Za-z0-9]*$/.test(id)) {
    throw new Error(`${method.toUpperCase()} ${path}: operationId '${id ?? ''}' is not '<group>.<method>' (src/swagger/operation-ids.ts names them)`);
  }
  const [group, name] = id.split('.') as [string, string];
  if (RESERVED_GROUPS.has(group)) throw new Error(`${id}: the group '${group}' is reserved by the SDK client`);
  const parameters = operation.parameters ?? [];
  const queryParameters = parameters.filter((parameter) => parameter.in === 'query');
  const pathParameters = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
  const content = operation.requestBody?.content ?? {};
  const contentTypes = Object.keys(content);
  const unsupported = contentTypes.filter((type) => type !== JSON_TYPE && type !== CSV_TYPE);
  if (unsupported.length > 0) throw new Error(`${id}: request content ${unsupported.join(', ')} is not supported by the SDK generator`);
  const successStatuses = Object.keys(operation.responses).filter((status) => /^2\d\d$/.test(status));
  const success = successStatuses.map((status) => operation.responses[status]?.content?.[JSON_TYPE]?.schema);
  const paginated =
    queryParameters.some((parameter) => parameter.name === 'cursor') && success.some((schema) => 'pagination' in propertiesOf(document, schema));
  const hasHeaderKey = parameters.some((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === IDEMPOTENCY_HEADER);
  const hasBodyKey = BODY_IDEMPOTENCY_FIELD in propertiesOf(document, content[JSON_TYPE]?.schema);
  const errorCodes = new Set<string>();
  for (const [status, response] of Object.entries(operation.responses)) {
    if (/^2\d\d$/.test(status)) continue;
    for (const example of Object.values(response.content?.[JSON_TYPE]?.examples ?? {})) {
      if (example.value?.error?.code) errorCodes.add(example.value.error.code);
    }
  }
  return {
    id,
    group,
    name,
    method: method.toUpperCase(),
    path,
    pathParameters,
    query: { present: queryParameters.length > 0, required: queryParameters.some((parameter) => parameter.required) },
    body: { present: contentTypes.length > 0, required: operation.requestBody?.required === true, contentTypes },
    successStatuses,
    paginated,
    credential: credentialOf(operation),
    idempotency: hasHeaderKey ? (hasBodyKey ? 'headerOrBody' : 'header') : 'none',
    errorCodes: [...errorCodes].sort(),
    operation,
  };
}

function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function comment(lines: string[], indent: string): string {
  const text = lines.flatMap((line) => line.split('\n')).map((line) => line.replace(/\*\//g, '*\\/').trimEnd());
  while (text.length > 0 && text[text.length - 1] === '') text.pop();
  return [`${indent}/**`, ...text.map((line) => (line ? `${indent} * ${line}` : `${indent} *`)), `${indent} */`].join('\n');
}

function typesOf(operation: Described): string {
  const at = `operations[${quote(operation.id)}]`;
  const requestBody = operation.body.required ? `${at}['requestBody']` : `NonNullable<${at}['requestBody']>`;
  const bodyTypes = operation.body.contentTypes.map((type) => (type === CSV_TYPE ? 'string' : `${requestBody}['content'][${quote(type)}]`));
  const responses = operation.successStatuses.map((status) => `${at}['responses'][${status}]['content'][${quote(JSON_TYPE)}]`);
  const response = responses.length > 0 ? responses.join(' | ') : 'undefined';
  const lines = [
    `  ${quote(operation.id)}: {`,
    `    query: ${operation.query.present ? `NonNullable<${at}['parameters']['query']>` : 'never'};`,
    `    body: ${bodyTypes.length > 0 ? bodyTypes.join(' | ') : 'never'};`,
    `    response: ${response};`,
    `    item: ${operation.paginated ? `(${response})['data'][number]` : 'never'};`,
    `    errorCode: ${operation.errorCodes.length > 0 ? operation.errorCodes.map(quote).join(' | ') : 'never'};`,
    '  };',
  ];
  return lines.join('\n');
}

/** The method's parameters: path ids in path order, then the query or body, then per-call options. */
function signatureOf(operation: Described): string {
  const id = quote(operation.id);
  const parameters = operation.pathParameters.map((name) => `${camelCase(name)}: string`);
  if (operation.query.present && operation.body.present) {
    const optional = operation.query.required || operation.body.required ? '' : '?';
    parameters.push(`input${optional}: { query${operation.query.required ? '' : '?'}: Query<${id}>; body${operation.body.required ? '' : '?'}: Body<${id}> }`);
  } else if (operation.query.present) {
    parameters.push(`query${operation.query.required ? '' : '?'}: Query<${id}>`);
  } else if (operation.body.present) {
    parameters.push(`body${operation.body.required ? '' : '?'}: Body<${id}>`);
  }
  parameters.push('options?: RequestOptions');
  const result = operation.paginated ? `PagePromise<${id}>` : `Promise<ApiResult<${id}>>`;
  return `${operation.name}(${parameters.join(', ')}): ${result};`;
}

function documentationOf(operation: Described): string[] {
  const { summary, description } = operation.operation;
  const scope = description?.match(/\*\*Scope:\*\* `([^`]+)`/)?.[1];
  const prose = (description ?? '').replace(/\*\*Scope:\*\* `[^`]+`\s*/, '').trim();
  const credential = { apiKey: `API key${scope ? ` with scope \`${scope}\`` : ''}`, adminToken: 'the admin token', none: 'no credential' }[operation.credential ?? 'none'];
  const lines = [summary ?? operation.id, ''];
  if (prose) lines.push(prose, '');
  lines.push(`\`${operation.method} ${operation.path}\` · ${credential} · operationId \`${operation.id}\``);
  if (operation.paginated) lines.push('', 'Await it for one page, or `for await` over it (or `.toArray({ limit })`) for every item across pages.');
  if (operation.errorCodes.length > 0) lines.push('', `@throws {ApiError} ${operation.errorCodes.join(', ')}`);
  return lines;
}

function runtimeEntryOf(operation: Described): string {
  const input = operation.query.present && operation.body.present ? 'queryAndBody' : operation.query.present ? 'query' : operation.body.present ? 'body' : 'none';
  const fields = [
    `group: ${quote(operation.group)}`,
    `name: ${quote(operation.name)}`,
    `method: ${quote(operation.method)}`,
    `path: ${quote(operation.path)}`,
    `pathParameters: [${operation.pathParameters.map(quote).join(', ')}]`,
    `input: ${quote(input)}`,
    `contentTypes: [${operation.body.contentTypes.map(quote).join(', ')}]`,
    `paginated: ${operation.paginated}`,
    `credential: ${operation.credential === null ? 'null' : quote(operation.credential)}`,
    `idempotency: ${quote(operation.idempotency)}`,
  ];
  return `  ${quote(operation.id)}: { ${fields.join(', ')} },`;
}

function describeAll(document: OpenApiDocument): { described: Described[]; groups: Map<string, Described[]> } {
  const described: Described[] = [];
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (operation) described.push(describe(document, path, method, operation));
    }
  }
  const groups = new Map<string, Described[]>();
  for (const operation of described) groups.set(operation.group, [...(groups.get(operation.group) ?? []), operation]);
  return { described, groups };
}

/** How many operations the SDK exposes: every one of the document. */
export function operationCount(document: OpenApiDocument): number {
  return describeAll(document).described.length;
}

/** The README's list of every method, grouped as the client exposes them (between its markers). */
export function renderOperationList(document: OpenApiDocument): string {
  const { described, groups } = describeAll(document);
  const lines = [`${described.length} operations in ${groups.size} groups, generated from openapi.json by \`npm run sdk:generate\`.`, ''];
  for (const [group, operations] of groups) {
    lines.push(`- **\`client.${group}\`**: ${operations.map((operation) => `\`${operation.name}\``).join(', ')}`);
  }
  lines.push('', '| method | route | what it does |', '|---|---|---|');
  for (const operation of described) {
    const args = [...operation.pathParameters.map(camelCase), ...(operation.query.present ? ['query'] : []), ...(operation.body.present ? ['body'] : [])];
    const summary = (operation.operation.summary ?? '').replace(/\|/g, '\\|');
    lines.push(`| \`${operation.group}.${operation.name}(${args.join(', ')})\`${operation.paginated ? ' ↻' : ''} | \`${operation.method} ${operation.path}\` | ${summary} |`);
  }
  lines.push('', '↻ a paginated list: `for await` over it, or `.toArray({ limit })`.');
  return lines.join('\n');
}

export function renderOperations(document: OpenApiDocument): string {
  const { described, groups } = describeAll(document);
  const tagDescriptions = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description ?? tag.name]));

  const groupInterfaces = [...groups].map(([group, operations]) => {
    const tags = [...new Set(operations.flatMap((operation) => operation.operation.tags ?? []))];
    const about = tags.map((tag) => tagDescriptions.get(tag) ?? tag);
    const methods = operations.map((operation) => `${comment(documentationOf(operation), '  ')}\n  ${signatureOf(operation)}`);
    return `${comment([`\`client.${group}\`: ${about.join('; ') || group}.`], '')}\nexport interface ${pascalCase(group)}Operations {\n${methods.join('\n\n')}\n}`;
  });

  return [
    '// Generated by `npm run sdk:generate` from openapi.json. Do not edit.',
    "import type { OperationDescription } from '../operation-description';",
    "import type { ApiResult, Body, PagePromise, Query, RequestOptions } from '../operation-types';",
    "import type { operations } from './openapi';",
    '',
    '/** Every operation of the document, by operationId: what the client sends and how. */',
    'export const OPERATIONS = {',
    ...described.map(runtimeEntryOf),
    '} as const satisfies Record<string, OperationDescription>;',
    '',
    'export type OperationId = keyof typeof OPERATIONS;',
    '',
    '/** The types of each operation: its query, body, success response, list item and documented error codes. */',
    'export interface OperationTypes {',
    ...described.map(typesOf),
    '}',
    '',
    ...groupInterfaces.flatMap((text) => [text, '']),
    '/** Every resource group of the document, as `client.<group>`. */',
    'export interface OperationGroups {',
    ...[...groups.keys()].map((group) => `  ${group}: ${pascalCase(group)}Operations;`),
    '}',
    '',
  ].join('\n');
}
