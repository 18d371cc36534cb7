import { Type } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';

/**
 * Documents a JSON request body with one whole example, the one Swagger UI pre-fills into "Try it
 * out". Without it Swagger UI assembles the body from every property's example, mutually
 * exclusive fields included (both customer ids, every delivery method's fields), which the
 * service refuses. The example must succeed as shipped on the demo merchant of a fresh embedded
 * start, whose catalogue (src/demo/demo-catalogue.ts) has what examples name by store id, after
 * the examples of earlier tags ran (test/e2e/swagger-ui.e2e-spec.ts executes every one).
 */
export function ApiJsonBody(type: Type<unknown>, example: Record<string, unknown>, options: { required?: boolean; summary?: string } = {}): MethodDecorator {
  return ApiBody({
    type,
    required: options.required ?? true,
    examples: { example: { summary: options.summary ?? 'A request that works as is', value: example } },
  });
}
