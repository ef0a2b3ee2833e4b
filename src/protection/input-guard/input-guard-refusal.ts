import { BadRequestException } from '@nestjs/common';
import { inspectRequest, MAX_GUARDED_CHARACTERS, MAX_GUARDED_VALUES, type Finding } from './input-inspector.js';

const CATEGORY_TEXT: Record<Finding['category'], string> = {
  sql_injection: 'looks like SQL injection',
  cross_site_scripting: 'looks like cross-site scripting',
  path_traversal: 'looks like path traversal',
  too_many_values: `carries more than ${MAX_GUARDED_VALUES} strings to inspect`,
  too_much_text: `carries more than ${MAX_GUARDED_CHARACTERS} characters to inspect`,
};

/**
 * Step 2 of the order of checks (docs/protection.md): 400 without a `code` when the raw path, query or
 * parsed body carries an attack pattern. Our hook and forward authentication (a gateway's original
 * path and query, docs/forward-auth.md) both ask here.
 */
export function assertCleanInput(parts: Parameters<typeof inspectRequest>[0]): void {
  const finding = inspectRequest(parts);
  if (finding) {
    throw new BadRequestException(`The input guard refused the request: its ${finding.part} ${CATEGORY_TEXT[finding.category]}.`);
  }
}
