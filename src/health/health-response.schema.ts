/**
 * The probes' answers as @nestjs/terminus builds them, said exactly (terminus's own Swagger schema
 * leaves the statuses open and the indicators a free-form map): `info`, `error` and `details` hold
 * the readiness indicators, `database` and `storage`, each up or down.
 */
const INDICATOR = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['up', 'down'] },
    driver: { type: 'string', enum: ['local', 's3'], description: 'storage: the object storage driver' },
    message: { type: 'string', maxLength: 1000, description: 'Why it is down' },
    reason: { type: 'string', maxLength: 200, description: 'storage: the kind of failure' },
  },
  additionalProperties: false,
};

const INDICATORS = {
  type: 'object',
  properties: { database: INDICATOR, storage: INDICATOR },
  additionalProperties: false,
};

/** 200: every indicator up (`ok`); 503: one is down (`error`). */
export function healthResponseSchema(statuses: Array<'ok' | 'error'>) {
  return {
    type: 'object',
    required: ['status'],
    properties: {
      status: { type: 'string', enum: statuses },
      info: { ...INDICATORS, nullable: true, description: 'The indicators that are up' },
      error: { ...INDICATORS, nullable: true, description: 'The indicators that are down' },
      details: { ...INDICATORS, description: 'Every indicator' },
      message: { type: 'string', maxLength: 1000, description: 'Why, when no indicator says' },
    },
    additionalProperties: false,
  };
}
