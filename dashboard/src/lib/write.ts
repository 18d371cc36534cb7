import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useRef } from 'react';
import { useMode } from './mode';

export interface WriteOptions<TVariables, TData> {
  /** The request; POSTs send `idempotencyKey` as the Idempotency-Key header. */
  mutationFn: (variables: TVariables, idempotencyKey: string) => Promise<TData>;
  onSuccess?: (data: TData, variables: TVariables) => void;
  /** Cached answers this write makes stale, as keys inside the page's mode: `[['products']]`. */
  invalidates?: QueryKey[];
  /** What makes two inputs the same intent; JSON by default (a File needs its name, size and date). */
  signature?: (variables: TVariables) => string;
}

function newKey(): string {
  return `dashboard_${crypto.randomUUID()}`;
}

/** How long a succeeded write's key is kept for a repeat: longer than a double click, shorter than a second thought. */
const REPEAT_WINDOW_MS = 5_000;

/**
 * A write that happens once however often it is asked for: a second call while the first runs
 * joins it, and a repeat of the same input (a retry after a lost answer, or within a few seconds of
 * success, a double click landing after a fast answer) carries the same Idempotency-Key, so the API
 * answers it with the first response instead of acting twice. A changed input is a new intent with
 * a new key; so is a repeat after the window (suspend, reactivate, suspend again) and `reset()`.
 */
export function useWrite<TVariables, TData>(options: WriteOptions<TVariables, TData>) {
  const mode = useMode();
  const queryClient = useQueryClient();
  const intent = useRef<{ signature: string; key: string; succeededAt?: number } | null>(null);
  const running = useRef<Promise<TData> | null>(null);
  const mutation = useMutation({
    mutationFn: ({ variables, key }: { variables: TVariables; key: string }) => options.mutationFn(variables, key),
    onSuccess: (data, { variables, key }) => {
      if (intent.current?.key === key) intent.current.succeededAt = Date.now();
      for (const stale of options.invalidates ?? []) void queryClient.invalidateQueries({ queryKey: [mode, ...stale] });
      options.onSuccess?.(data, variables);
    },
  });
  /** Sends the write (or joins the one already running); resolves with its answer. */
  const runAsync = (variables: TVariables): Promise<TData> => {
    if (running.current) return running.current;
    const signature = options.signature ? options.signature(variables) : (JSON.stringify(variables) ?? '');
    let current = intent.current;
    const expired = current?.succeededAt !== undefined && Date.now() - current.succeededAt > REPEAT_WINDOW_MS;
    if (!current || current.signature !== signature || expired) {
      current = { signature, key: newKey() };
      intent.current = current;
    }
    const sent = mutation.mutateAsync({ variables, key: current.key }).finally(() => {
      running.current = null;
    });
    running.current = sent;
    return sent;
  };
  /** Sends the write; its failure shows through `error`. */
  const run = (variables: TVariables) => {
    runAsync(variables).catch(() => undefined);
  };
  const reset = () => {
    intent.current = null;
    mutation.reset();
  };
  return { run, runAsync, isPending: mutation.isPending, error: mutation.error, data: mutation.data, isSuccess: mutation.isSuccess, reset };
}
