/** DTO classes whose input a pipe of their own parses: the global validation pipe passes them through. */
const PARSED_BY_OWN_PIPE = new WeakSet<object>();

/**
 * Marks a query or body DTO as parsed by the pipe its route names (`@Query(SomePipe)`) instead of
 * class-validator, for hot routes where class-transformer and class-validator are most of the
 * cost. The DTO keeps its decorators: Swagger describes it from them, and that pipe's tests
 * compare it with class-validator's answers for the same input.
 */
export function ParsedByOwnPipe(): ClassDecorator {
  return (target) => {
    PARSED_BY_OWN_PIPE.add(target);
  };
}

export function isParsedByOwnPipe(type: unknown): boolean {
  return typeof type === 'function' && PARSED_BY_OWN_PIPE.has(type);
}
