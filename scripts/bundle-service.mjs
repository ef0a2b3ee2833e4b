// The last step of `npm run build`: dist/src/main.js and the packages it loads, bundled into
// dist/service/ (docs/performance.md, "Start-up"). Unbundled, Node finds, reads and links thousands
// of module files at each start, most of spawn to ready; 45 chunks skip most of that work.
// Usage: node scripts/bundle-service.mjs [entry outDir] [--no-sourcemap] (the tests bundle their own build).
import { rm } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { rolldown } from 'rolldown';

const root = join(import.meta.dirname, '..');
const [entryArg, outDirArg] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const entry = resolve(entryArg ?? join(root, 'dist', 'src', 'main.js'));
const outDir = resolve(outDirArg ?? join(root, 'dist', 'service'));

// Left in node_modules, loaded as they are without the bundle: what loads on first use only; what a
// package loads at run time with `require` (TypeORM its driver, pg; Nest's mapped types
// class-transformer's storage), which a bundled copy would make two copies with two states (pg's type
// parsers, class-transformer's metadata), and the decorators' metadata they all share; and samlify,
// whose files are read by path.
const UNBUNDLED = ['@electric-sql/pglite', 'oidc-provider', '@sd-jwt/sd-jwt-vc', 'samlify', 'pg', 'class-transformer', 'reflect-metadata'];
// Optional peers, required at run time only when installed and asked for (@fastify/static, for /docs).
const OPTIONAL =
  /^(pg-native|@nestjs\/(microservices|websockets|platform-express)|@fastify\/(static|view|multipart)|class-transformer\/storage)(\/|$)/;

const LOCATION = /\bimport\.meta\.url\b|\b__dirname\b|\b__filename\b/;

/**
 * Every bundled module keeps its own location: `import.meta.url`, `__dirname` and `__filename` name
 * the file the module came from, found from the bundle's own URL, so assets, the embedded seed and
 * packages' own files resolve as they did (the bundle moves with dist/ and node_modules/).
 */
const ownLocation = {
  name: 'own-location',
  transform: {
    filter: { code: LOCATION },
    handler(code, id) {
      const url = `new URL(${JSON.stringify(relative(outDir, id).split('\\').join('/'))}, import.meta.url)`;
      const declares = (name) => new RegExp(`\\b(var|let|const)\\s+${name}\\b`).test(code);
      const prologue = [`var __moduleUrl = ${url}.href;`];
      const path = (of) => `decodeURIComponent(new URL(${of}, __moduleUrl).pathname)`;
      if (/\b__filename\b/.test(code) && !declares('__filename')) prologue.push(`var __filename = ${path("''")};`);
      if (/\b__dirname\b/.test(code) && !declares('__dirname')) prologue.push(`var __dirname = ${path("'.'")}.slice(0, -1);`);
      return { code: `${prologue.join(' ')}\n${code.replace(/\bimport\.meta\.url\b/g, '__moduleUrl')}`, map: null };
    },
  },
};

// Nest packages that load a regular dependency through `createRequire(import.meta.url)`, which
// rolldown leaves to Node (the packages' own comments say so): TypeORM from @nestjs/typeorm,
// class-validator from the mapped types. Unshimmed, each would load a second copy from node_modules
// at run time, over a thousand files for TypeORM.
const SHIMMED_REQUIRES = /@nestjs[\\/](typeorm[\\/]dist[\\/]common[\\/]typeorm-compat|mapped-types[\\/]dist[\\/]type-helpers\.utils)\.js$/;
const CREATED_REQUIRE = 'const require = createRequire(import.meta.url);';

/**
 * Their `require('name')` answers the bundled module where the name is bundled (a static import of
 * it), and asks Node for the rest (an unbundled package, or one not installed, which throws as before).
 */
const bundledRequires = {
  name: 'bundled-requires',
  transform: {
    filter: { id: SHIMMED_REQUIRES },
    async handler(code, id) {
      if (!code.includes(CREATED_REQUIRE)) this.error(`${id} no longer makes its require as bundled-requires expects: review the plugin`);
      const names = [...new Set([...code.matchAll(/\brequire\('([^']+)'\)/g)].map((match) => match[1]))];
      const bundled = [];
      for (const name of names) {
        const resolved = await this.resolve(name, id);
        if (resolved && !resolved.external) bundled.push(name);
      }
      const imports = bundled.map((name, i) => `import * as __bundled${i} from ${JSON.stringify(name)};`).join('\n');
      const table = `new Map([${bundled.map((name, i) => `[${JSON.stringify(name)}, __bundled${i}]`).join(', ')}])`;
      const require = [
        `const __bundledRequires = ${table};`,
        'const __nodeRequire = createRequire(import.meta.url);',
        'const require = (name) => __bundledRequires.get(name) ?? __nodeRequire(name);',
      ].join(' ');
      return { code: `${imports}\n${code.replace(CREATED_REQUIRE, require)}`, map: null };
    },
  },
};

const isExternal = (id) =>
  id.startsWith('node:') || OPTIONAL.test(id) || UNBUNDLED.some((name) => id === name || id.startsWith(`${name}/`));

const bundle = await rolldown({
  input: entry,
  platform: 'node',
  external: isExternal,
  // bundled-requires first: the require it keeps for Node is then given its module's own location.
  plugins: [bundledRequires, ownLocation],
  // Direct eval in packages (depd) and pure annotations are theirs; warnings that matter stay on.
  onLog: (level, log, defaultHandler) => {
    if (log.code === 'EVAL' || log.code === 'INVALID_ANNOTATION') return;
    defaultHandler(level, log);
  },
});
await rm(outDir, { recursive: true, force: true });
await bundle.write({
  dir: outDir,
  entryFileNames: 'main.js',
  chunkFileNames: '[name]-[hash].js',
  format: 'esm',
  // Chunks of at most 500 kB, not one file: V8 compiling one 11 MB script kept about 25 MiB more of
  // malloc'd memory for the life of the process (docs/performance.md, "Start-up"). The chunks run in
  // the order the modules did, side effects included.
  // Only what a start loads ($initial) is grouped: what the code imports on first use (ioredis,
  // nodemailer…) keeps chunks of its own, read and compiled only then.
  codeSplitting: {
    groups: [
      { name: 'packages', test: /node_modules/, tags: ['$initial'], maxSize: 500_000 },
      { name: 'service', tags: ['$initial'], maxSize: 500_000 },
    ],
  },
  strictExecutionOrder: true,
  // For `node --enable-source-maps` when a stack trace must name the compiled files (docs/operations.md).
  sourcemap: !process.argv.includes('--no-sourcemap'),
  // One-byte source: one character beyond Latin-1 would make V8 hold the whole file as UTF-16, twice the memory.
  charset: 'ascii',
  // Licence notices stay; documentation comments are only bytes to read and parse at each start.
  comments: { legal: true, annotation: false, jsdoc: false },
});
await bundle.close();
