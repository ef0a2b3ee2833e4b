/** A problem-details answer of the service, read into an error the pages can show. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let onUnauthorized: () => void = () => undefined;

/** Where a 401 sends the user: back to the login form. */
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

/**
 * One call of the service. The session cookie goes along by itself (same origin); the header is the
 * console's CSRF proof, which the service demands on every cookie call (docs/console.md).
 */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { 'x-eidgw-console': '1', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return undefined as T;
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    if (response.status === 401 && !path.startsWith('/console/login')) onUnauthorized();
    // A problem-details body (docs/api.md, "Errors"), or none when the answer was not JSON.
    const problem = data as { code?: string; detail?: string; title?: string; errors?: { pointer: string; detail: string }[] } | null;
    // A validation problem names each field it refused (docs/api.md, "Errors"): the reader needs those words.
    const fields = problem?.errors?.map((error) => `${error.pointer.slice(1)}: ${error.detail}`) ?? [];
    const message = [problem?.detail ?? problem?.title ?? response.statusText, ...fields].join(' ');
    throw new ApiError(response.status, problem?.code ?? 'error', message);
  }
  return data as T;
}

export interface SortModel {
  colId: string;
  sort: 'asc' | 'desc';
}

export interface ListingPage<T> {
  rows: T[];
  /** -1 while more rows exist, else the total. */
  lastrow: number;
}

/** A page of a tabular listing (docs/listings.md). */
export function listing<T>(path: string, startRow: number, endRow: number, sortModel: SortModel[], filterModel: Record<string, unknown>) {
  return call<ListingPage<T>>('POST', path, { startRow, endRow, sortModel, filterModel });
}
