import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  /** Requests answered (any status); absent where a caller composes its own result. */
  requests?: number;
  p50: number;
  p99: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Picks the path of each request (e.g. to spread polls over many sessions). */
  path?: () => string;
  /** Picks the path and headers of each request (e.g. several tenants, each with its own key). */
  next?: () => { path: string; headers: Record<string, string>; body?: string };
  /** Sees each answer's status and body (e.g. to keep the tokens a token endpoint issued). */
  onBody?: (status: number, body: string) => void;
  /** A fixed number of requests (e.g. one per single-use code) instead of a duration. */
  amount?: number;
  connections?: number;
  durationSeconds?: number;
}

/** Fixed-concurrency load from this (separate) process; non-2xx answers count as errors. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const started = performance.now();
  let lastAnswerAt = started;
  const result = await autocannon({
    url: options.url,
    connections: options.connections ?? 10,
    ...(options.amount ? { amount: options.amount } : { duration: options.durationSeconds ?? 5 }),
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    requests: options.next
      ? [
          {
            setupRequest: (request) => {
              const picked = options.next!();
              return {
                ...request,
                path: picked.path,
                headers: { ...request.headers, ...picked.headers },
                ...(picked.body === undefined ? {} : { body: picked.body }),
              };
            },
            // Only when asked for: autocannon then keeps every answer's body.
            ...(options.amount || options.onBody
              ? {
                  onResponse: (status: number, body: string) => {
                    lastAnswerAt = performance.now();
                    options.onBody?.(status, body);
                  },
                }
              : {}),
          },
        ]
      : options.path
        ? [{ setupRequest: (request) => ({ ...request, path: options.path!() }) }]
        : undefined,
  });
  return {
    // A fixed amount ends mid-second, and autocannon resolves on its next one-second tick: its samples
    // and its duration would undercount, so the rate runs to the last answer.
    rps: options.amount && options.next ? (result.requests.total * 1000) / (lastAnswerAt - started) : result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}
