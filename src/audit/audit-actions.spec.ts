import { readFileSync } from 'node:fs';
import { AUDIT_ACTIONS } from './audit-actions.js';

/** The actions the table of docs/audit.md, "What is recorded", names in its first column (the OpenAPI enum is AUDIT_ACTIONS). */
function documentedActions(): string[] {
  const doc = readFileSync(new URL('../../docs/audit.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## What is recorded'), doc.indexOf('## How to record'));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1].matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((match) => match[1]));
}

describe('AUDIT_ACTIONS', () => {
  it('should name exactly the actions docs/audit.md documents', () => {
    expect(documentedActions().sort()).toEqual([...AUDIT_ACTIONS].sort());
  });
});
