// Signatures in the spirit of the OWASP Core Rule Set at paranoia level 1: each needs the
// *structure* of an attack (a closed literal followed by a boolean test or a comment, a statement
// after `;`, a tag with a script sink, a `../` segment), never a lone keyword, so that
// "O'Brien", "Select Dental AB" and "1 OR 2 people" pass. They run on folded (lower-case, NFKC)
// and decoded text. The measured detection and false-positive rates are in docs/protection.md.

import { withinOneTag, type Signature } from './tag-scanner.js';

export type AttackCategory = 'sql_injection' | 'cross_site_scripting' | 'path_traversal';

// Linear time (docs/protection.md): no two unbounded loops in a row may match the same characters,
// so `\s*\)*\s*` is written `\s*(?:\)\s*)*` (each round must take a parenthesis), and an operand is
// either absent or starts with something that is not a space.
// A literal being closed: a quote or a backtick, maybe followed by closing parentheses.
const CLOSE = String.raw`['"\`]\s*(?:\)\s*)*`;
const CLOSING = String.raw`\s*(?:\)\s*)*`;
const OPERAND = String.raw`(?:\(\s*)*(?:['"\`]*[\w@$.]+['"\`]*\s*|['"\`]+\s*)?(?:\)\s*)*`;
const SYMBOL_COMPARISON = String.raw`(?:=|<>|!=|<=>|<=|>=|<|>)`;
// After a closed quote, word operators too; after a number or at the start, prose ("2 and I like it") has them.
const COMPARISON = String.raw`(?:${SYMBOL_COMPARISON}|\blike\b|\brlike\b|\bregexp\b|\bin\s*\(|\bbetween\b)`;
const SQL_STATEMENT =
  String.raw`(?:select\b[^;]{0,200}?\bfrom\b|select\s+\*|insert\s+into\b|update\s+[\w."\`\[\]]+\s+set\b|delete\s+from\b|` +
  String.raw`drop\s+(?:table|database|schema|user|view|function|procedure|index)\b|truncate\s+(?:table\s+)?[\w."\`]|` +
  String.raw`alter\s+(?:table|database|user)\b|create\s+(?:table|user|database|function|procedure|trigger)\b|` +
  String.raw`exec(?:ute)?\s*(?:\(\s*)?(?:xp_|sp_|master\.|@|'|")|declare\s+@|shutdown\b|waitfor\s+(?:delay|time)\b|` +
  String.raw`grant\s+\w+\s+(?:on|to)\b|set\s+@)`;

export const SQL_INJECTION: readonly Signature[] = [
  // ' or '1'='1   1 or 1=1   ') or ('a'='a   " or ""="   '||'1'='1
  new RegExp(String.raw`${CLOSE}(?:(?:or|and|xor)\b|\|\||&&)\s*(?:${OPERAND}|\(\s*select\b.{0,200}?)${COMPARISON}`),
  new RegExp(String.raw`\b\d+${CLOSING}(?:(?:or|and|xor)\b|\|\||&&)\s*${OPERAND}${SYMBOL_COMPARISON}`),
  // the same as a suffix appended to a value: or 2 > 1   and 1=0--   having 1=1   or true--   or 1 --
  new RegExp(String.raw`^${CLOSING}(?:or|and|xor|having)\s+${OPERAND}${SYMBOL_COMPARISON}`),
  /^\s*(?:or|and)\s+(?:true|false|\d+)\s*(?:--|#|\/\*|$)/,
  // tautologies on their own: or 1=1, and 'a'='a'
  /\b(?:or|and)\s+(\w+)\s*(?:=|like)\s*\1\b/,
  /\b(?:or|and)\s+(['"])([^'"]*)\1\s*(?:=|like)\s*\1\2\1/,
  // an empty literal after or/and, a MySQL arithmetic trick: ' or ''-'   " or ""*"   admin' or '
  /['"]\s*(?:or|and)\s*(['"])\1|['"]\s*(?:or|and)\s*['"]\s*$/,
  // a literal closed, then a function probing the database: ' and substring(password,1,1)='a
  /['"`]\s*(?:\)\s*)*(?:or|and)\s+(?:isnull|ifnull|nullif|sleep|pg_sleep|benchmark|exists|ascii|ord|substring|substr|mid|length|char|if|case|randomblob)\s*\(/,
  // ' or true--   ' and sleep(5)   ' or 1#   ' and (select ...)
  new RegExp(
    String.raw`${CLOSE}(?:or|and|xor|\|\||&&)\s*(?:\(\s*)*(?:true|false|null|not\b|exists\b|select\b|sleep\b|benchmark\b|pg_sleep\b|\d+\s*(?:--|#|/\*|;|$))`,
  ),
  // a literal closed and the rest commented out: admin'--   admin' -- -   admin' #   admin'/*
  // (prose such as `"Hello" -- she said` passes: a spaced `--` counts only at the end)
  /['"]\)*--|['"]\s*(?:\)\s*)*(?:--[\s+-]*$|#\s*$|\/\*)/,
  // ' order by 3--   ' group by 1,2   ' having 1=1   '+(select ...)   '||(select ...)
  /['"`)]\s*(?:order|group)\s+by\s+\d/,
  /['"`)]\s*having\s+\d+\s*=|\bhaving\s+\d+\s*=\s*\d+\s*(?:--|#|\/\*|;|$)|\bgroup\s+by\s+[\w.]+\s+having\b/,
  /\b(?:order|group)\s+by\s+\d+(?:\s*,\s*\d+)*\s*(?:--[\s+-]*$|#\s*$|\/\*|;)/,
  /['"`]\s*(?:\+|\|\||&&|(?:or|and|xor|r?like|regexp|in)\b|=|<>|!=|<|>)\s*\(+\s*select\b/,
  // quote-equals-quote tautologies: 1'='1   '=' 'or'
  /\w['"]\s*=\s*['"]\w|['"]\s*=\s*['"]\s*['"]?\s*(?:or|and)\b/,
  // union [all] select, followed by something a query would select
  /\bunion\b[\s(]*(?:(?:all|distinct)\b[\s(]*)?select\b\s*(?:\*|null\b|\d|@@|['"(]|[\w.$]+\s*(?:,|\(|\bfrom\b)|all\b|distinct\b|top\b)/,
  /['"`)]\s*union\b[\s(]*(?:(?:all|distinct)\b[\s(]*)?select\b|\bunion\s+(?:all|distinct)\s+select\b/,
  // stacked statements: '; drop table users   1; waitfor delay '0:0:5'
  new RegExp(String.raw`;\s*${SQL_STATEMENT}`),
  // whole statements that ordinary text does not contain
  /\bselect\s+(?:\*|[\w.$]+(?:\s*,\s*[\w.$]+)+|count\s*\(\s*\*\s*\))\s+from\s+[\w.$`"[\]]+\s*(?:$|where\b|;|--|#|\/\*|limit\b|order\b|group\b|join\b|inner\b|left\b|\))/,
  /\binsert\s+into\s+[\w."`[\]]+\s*(?:\(|values\b|select\b)/,
  /\bupdate\s+[\w."`[\]]+\s+set\s+[\w."`[\]]+\s*=/,
  /\bdelete\s+from\s+\S+\s+where\b/,
  /\bdrop\s+(?:table|database|schema)\s+(?:if\s+exists\s+)?[\w."`]+\s*(?:;|--|#|\/\*|cascade\b)/,
  // time-based and out-of-band probes, system catalogues, error-based helpers
  /\bsleep\s*\(\s*(?:\d+(?:\.\d+)?|__\w+__|@\w+)\s*\)|\b(?:pg_sleep|randomblob)\s*\(/,
  /\bbenchmark\s*\(\s*\d+\s*,/,
  /\bwaitfor\s+(?:delay|time)\s+['"]/,
  /\b(?:xp_cmdshell|sp_executesql|sp_oacreate|xp_dirtree|dbms_pipe\.receive_message|utl_inaddr\.|utl_http\.|dbms_xmlgen|sys\.dbms_\w+)\b/,
  /\bexec(?:ute)?\s+(?:master\.\.)?(?:xp|sp)_\w+|\bexec(?:ute)?\s*\(\s*@|\bdeclare\s+@\w+\s+n?(?:varchar|char|int|sysname)\b/,
  /\b(?:load_file|extractvalue|updatexml|group_concat|make_set|pg_read_file|lo_import)\s*\(/,
  /\binto\s+(?:out|dump)file\b/,
  /\binformation_schema\b|\bpg_catalog\.|\bmysql\.(?:user|db)\b|\bsys(?:objects|columns|databases|logins)\b|\bsqlite_master\b|\ball_tables\b/,
  /@@(?:version|datadir|hostname|basedir|servername|identity)\b/,
  /\b(?:char|chr)\s*\(\s*\d+\s*(?:,\s*\d+\s*)+\)|\bchr\s*\(\s*\d+\s*\)\s*\|\|/,
  /\(\s*select\s*\(?\s*case\s+when\b|\bif\s*\(\s*\d+\s*=\s*\d+\s*\)\s*select\b/,
  /\bconvert\s*\(\s*int\s*,|\bcast\s*\(.{1,80}\bas\s+(?:int|integer|numeric|varchar|char)\b/,
  /\bversion\s*\(\s*\)|\bcurrent_user\s*\(\s*\)|\bdatabase\s*\(\s*\)|\buser\s*\(\s*\)\s*(?:--|#|,|\)|$)/,
];

// Event handlers that browsers run; a list rather than `on\w+` so "online=yes" passes.
const EVENT = String.raw`on(?:abort|activate|after\w+|animation\w+|auxclick|before\w+|begin|blur|cancel|canplay\w*|change|click|close|contextmenu|copy|cuechange|cut|dblclick|drag\w*|drop|durationchange|end|ended|error|focus\w*|formdata|hashchange|input|invalid|key\w+|load\w*|message|mouse\w+|paste|pause|play\w*|pointer\w+|popstate|progress|ratechange|repeat|reset|resize|scroll\w*|search|seek\w+|select\w*|show|start|stalled|storage|submit|suspend|timeupdate|toggle|touch\w+|transition\w+|unload|volumechange|waiting|wheel)`;
const SCHEME = String.raw`(?:(?:java|vb|live)script|mocha)\s*:`;

export const CROSS_SITE_SCRIPTING: readonly Signature[] = [
  // tags that run script or load content: <script, </script, <svg, <iframe, <html:script ...
  /<\s*(?:\/\s*)?(?:[a-z]+:)?(?:script|iframe|frame|frameset|object|embed|applet|svg|math|xml|noscript|isindex|portal|xss|layer|ilayer|bgsound)\b/,
  // tags harmless as words in prose ("see <link>") but not with their loading attributes
  withinOneTag(String.raw`<\s*(?:link|meta|base)\b`, String.raw`\b(?:href|http-equiv|content|rel|target)\s*=`),
  /<\s*(?:\/\s*)?style\b[^<>]*>/,
  // any tag with an event handler: <img src=x onerror=...>, <x/onclick=...>
  // (any name: PortSwigger's cheat sheet finds new handlers every year; `<` keeps prose out)
  withinOneTag('<[a-z]', String.raw`[\s/"'\`]on[a-z]+\s*=`),
  // breaking out of an attribute into a new one: " onmouseover="alert(1)
  new RegExp(String.raw`['"\`][\s/]*${EVENT}\s*=`),
  // a script URL in an attribute or on its own: href="javascript:...", javascript:alert(1)
  withinOneTag(
    '<[a-z]',
    String.raw`\b(?:href|src|action|formaction|data|background|poster|srcdoc|xlink:href|dynsrc|lowsrc|code|codebase|style)\s*=`,
    SCHEME,
  ),
  new RegExp(String.raw`${SCHEME}\s*(?:[\w$.]+\s*[(\`=\[]|//|/\*|\(|\`)`),
  /\bdata\s*:\s*(?:text\/html|application\/(?:x-)?javascript|text\/javascript)/,
  /\burl\s*\(\s*(?:['"]\s*)?(?:javascript|vbscript)\s*:/,
  withinOneTag(String.raw`\bstyle\s*=`, String.raw`\bexpression\s*\(`),
  /[{;]\s*[\w-]+\s*:\s*expression\s*\(/,
  // script sinks reached without a tag: ';alert(1)//   "-prompt`1`-"   {{constructor.constructor(...)}}
  /(?:^|[;'"`(+\-=|&{}>.])\s*(?:alert|prompt|confirm|eval|settimeout|setinterval|fetch|import)\(\s*(?:\d|['"`/]|document|window|this|self|top|parent|location|string\.fromcharcode|atob)/,
  /\b(?:alert|prompt|confirm|eval)`[^`]*`/,
  /\b(?:document|window|self|top|parent)\s*\.\s*(?:cookie|domain|location|write|writeln)\b|\b(?:window|top|self|parent|frames|globalthis)\s*\[|\.innerhtml\s*=/,
  // a sink passed around instead of called: (alert)(1)   a=alert,a(1)   [1].find(alert)
  /\(\s*(?:alert|prompt|confirm|eval)\s*\)\s*\(|[=,]\s*(?:alert|prompt|confirm|eval)\s*[,;]|\.(?:find|map|call|apply)\s*\(\s*(?:alert|prompt|confirm|eval)\b/,
  /\bstring\s*\.\s*fromcharcode\s*\(|\bconstructor\s*\.\s*constructor\s*\(|\bconstructor\s*\(\s*['"`]/,
];

export const PATH_TRAVERSAL: readonly Signature[] = [
  // ../  ..\  ..;/  and a `..` segment at either end (`/..`, `..` alone)
  /\.\.[/\\]|\.\.;|(?:^|[/\\])\.\.$|^\.\.(?:[/\\]|$)/,
  // `..` followed by an encoded separator some decoders still understand
  /\.\.(?:0x2f|0x5c|%2f|%5c)/,
  // well-known files and directories reached through a traversal or a file URL
  /(?:^|[/\\:])(?:etc[/\\](?:passwd|shadow|group|hosts|issue|motd|sudoers|crontab)|proc[/\\]self[/\\]|windows[/\\](?:win\.ini|system32)|winnt[/\\]|boot\.ini|web-inf[/\\]|\.ssh[/\\]|\.git[/\\]|\.htaccess|\.htpasswd|id_rsa)/,
  /\bfile:\/\//,
];

/** Extra views of a folded string that some attacks need: SQL without its inline comments, script URLs without the controls browsers skip. */
export const VIEWS: Record<AttackCategory, (folded: string) => string[]> = {
  sql_injection: (text) => {
    if (!/[/#+]/.test(text)) return [text];
    // `union/**/select`, `/*!50000select*/` and `#...\n` comments read as whitespace to a SQL server;
    // `+` too: it is a space once a form or query decoder has seen it (`1+union+select+1`). A run of them
    // is one space to SQL: collapsed, padding cannot push a statement past a bounded window, and a
    // 64 KiB run costs the signatures nothing (docs/protection.md, "Linear time").
    const stripped = replaceComments(replaceComments(text, '/*', '*/', ' ', '!'), '#', '\n', ' ')
      .replace(/\/\*!\d*|\*\//g, ' ')
      .replace(/[+\s]+/g, ' ');
    // and with comments removed outright, for `uni/**/on sel/**/ect` aimed at filters that delete them.
    const joined = replaceComments(text, '/*', '*/', '');
    return [...new Set([text, stripped, joined])];
  },
  cross_site_scripting: (text) => {
    const compact = text.replace(/[\t\n\r\f\v]/g, '');
    return compact === text ? [text] : [text, compact];
  },
  path_traversal: (text) => [text],
};

/**
 * Every `open … close` span replaced, found with indexOf: a lazy `\/\*[\s\S]*?\*\/` rescans the rest of
 * the text from every unclosed opener, quadratic on `/* /* /* …`. `keep` names a character after the
 * opener that marks a span to leave alone (MySQL's executable `/*!` comments).
 */
function replaceComments(text: string, open: string, close: string, replacement: string, keep?: string): string {
  let result = '';
  let from = 0;
  for (let start = text.indexOf(open); start !== -1; start = text.indexOf(open, start + 1)) {
    if (start < from || (keep !== undefined && text.startsWith(keep, start + open.length))) continue;
    const end = text.indexOf(close, start + open.length);
    if (end === -1) break;
    result += text.slice(from, start) + replacement;
    from = end + close.length;
  }
  return result + text.slice(from);
}

export const PATTERNS: Record<AttackCategory, readonly Signature[]> = {
  sql_injection: SQL_INJECTION,
  cross_site_scripting: CROSS_SITE_SCRIPTING,
  path_traversal: PATH_TRAVERSAL,
};
