import { readFileSync } from 'node:fs';

/** The fenced blocks of one language in a markdown text. */
const blocks = (markdown: string, language: string): string[] =>
  [...markdown.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((match) => match[1]);

describe('docs/forward-auth.md', () => {
  const docs = readFileSync('docs/forward-auth.md', 'utf8');

  // The gateway tests run the files under deploy/; the page must show exactly those.
  it.each([
    ['nginx', 'deploy/nginx/forward-auth.conf'],
    ['caddy', 'deploy/forward-auth.caddy'],
  ])('should show the %s snippet the gateway test runs (%s)', (language, file) => {
    expect(blocks(docs, language)).toEqual([readFileSync(file, 'utf8')]);
  });
});
