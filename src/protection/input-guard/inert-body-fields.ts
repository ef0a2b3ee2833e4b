// Top-level body fields a route's own hook checked, before the input guard, to hold only inert data
// (base64 the service only decodes): the guard does not read them (docs/protection.md, "Linear time").
const marked = new WeakMap<object, ReadonlySet<string>>();

export function markInertBodyFields(request: object, fields: ReadonlySet<string>): void {
  marked.set(request, fields);
}

export function inertBodyFieldsOf(request: object): ReadonlySet<string> | undefined {
  return marked.get(request);
}
