// ESLint: the recommended JavaScript rules and typescript-eslint's type-checked recommended set.
// Formatting is Prettier's (npm run format:check), so eslint-config-prettier turns the style rules off.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier/flat';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The provider folders under src/eid-providers/: a new provider adds its folder here (docs/providers.md).
const PROVIDER_FOLDERS = ['bankid', 'freja', 'simulator', 'upstream-oidc'];

// The layers (docs/architecture.md, "Layers"): the platform folders import no feature and not the
// application root (src/app.*.ts) that composes the features; every other folder under src/ is a feature.
const PLATFORM_FOLDERS = ['common', 'config', 'database', 'listings', 'metrics', 'qr'];
const FEATURE_FOLDERS = readdirSync(join(import.meta.dirname, 'src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !PLATFORM_FOLDERS.includes(entry.name))
  .map((entry) => entry.name);
const PRIVATE_PROVIDER_FOLDERS = {
  regex: '/eid-providers/[^/]+/',
  message: 'Provider folders are private: use the port (eid-provider.ts) and the registry (docs/providers.md).',
};
const NO_FEATURES = {
  regex: `^(\\.\\./)+((${FEATURE_FOLDERS.join('|')})/|app\\.)`,
  message: 'A platform folder imports no feature and not the application root: the root composes them (docs/architecture.md, "Layers").',
};
const NO_SESSIONS = {
  regex: '^(\\.\\./)+sessions/',
  message: 'A provider adapter imports nothing of sessions/: what both need is the port\'s vocabulary (docs/architecture.md, "Layers").',
};
const restrictedImports = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

const TYPED_SQL = [
  {
    selector: "CallExpression[callee.property.name='query']",
    message: 'Declare the SQL with statement() (src/database/statement.ts) and run it; see docs/architecture.md, "Data access".',
  },
  {
    selector: "MemberExpression[property.name='master']",
    message: "TypeORM's pool is read by postgresPool() in src/database/sql-execution.ts only.",
  },
];
// The service's own providers by name: what the OpenID front knows of them comes from the port.
const NO_PROVIDER_NAMES = ['Literal[value=', 'TemplateElement[value.raw='].map((node) => ({
  selector: `${node}/^(bankid|freja|simulator)$/]`,
  message: "The OpenID front names no provider: ask the provider's OpenID face through the registry (docs/providers.md).",
}));

export default defineConfig(
  // clients/typescript/src/generated/ is openapi-typescript's output (npm run openapi), checked by check:openapi instead.
  {
    ignores: [
      'dist/',
      'coverage/',
      'data/',
      'examples/typed-rp/eid-gateway.d.ts',
      'clients/typescript/dist/',
      'clients/typescript/src/generated/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    // The console's Vite config is in neither tsconfig (console/tsconfig.json is the browser code's).
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['console/vite.config.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `const { secret: _secret, ...rest } = row` drops a field on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Async methods implement Promise-returning ports (OtpDelivery, EidProvider, hooks) and turn throws into rejections.
      '@typescript-eslint/require-await': 'off',
      // The input guard and the webhook header check look for control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    // Response bodies (supertest, fetch, JSON.parse) are `any` by design; tests and benchmarks read them directly.
    files: ['test/**/*.ts', 'bench/**/*.ts', '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain JavaScript (the kiosk page's script, the example receiver, jest's config): not in the TS project.
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // A provider is a folder (docs/providers.md): the rest of the service reaches it only through the
    // port and the registry at the top of src/eid-providers/, never its files.
    files: ['src/**/*.ts'],
    ignores: ['src/eid-providers/**'],
    rules: restrictedImports(PRIVATE_PROVIDER_FOLDERS),
  },
  {
    // One direction between layers (a later no-restricted-imports replaces an earlier one, so each repeats what applies).
    files: PLATFORM_FOLDERS.map((folder) => `src/${folder}/**/*.ts`),
    rules: restrictedImports(PRIVATE_PROVIDER_FOLDERS, NO_FEATURES),
  },
  {
    files: ['src/eid-providers/**/*.ts'],
    rules: restrictedImports(NO_SESSIONS),
  },
  {
    // One typed way to run SQL (docs/architecture.md, "Data access"): statements declared with statement(),
    // PreparedSelect, or a TypeORM repository. Raw query calls and TypeORM's untyped pool stay in src/database/.
    files: ['src/**/*.ts'],
    ignores: ['src/database/**', '**/*.spec.ts'],
    rules: { 'no-restricted-syntax': ['error', ...TYPED_SQL] },
  },
  {
    // A front is a face, not a table (docs/providers.md, "The OpenID face"): the OpenID front asks the
    // port what a provider offers and never names one. (Repeats TYPED_SQL: a later rule replaces an earlier one.)
    files: ['src/oidc/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...TYPED_SQL, ...NO_PROVIDER_NAMES] },
  },
  {
    files: ['src/oidc/**/*.spec.ts'],
    rules: { 'no-restricted-syntax': ['error', ...NO_PROVIDER_NAMES] },
  },
  ...PROVIDER_FOLDERS.map((folder) => ({
    // One provider never imports another; what two share lives in eid-providers/shared/.
    files: [`src/eid-providers/${folder}/**/*.ts`],
    rules: restrictedImports(
      {
        regex: `(^|/)(${PROVIDER_FOLDERS.filter((other) => other !== folder).join('|')})/`,
        message: 'A provider folder imports no other provider: move what they share to eid-providers/shared/ (docs/providers.md).',
      },
      NO_SESSIONS,
    ),
  })),
  {
    files: ['src/eid-providers/shared/**/*.ts'],
    rules: restrictedImports(
      { regex: `(^|/)(${PROVIDER_FOLDERS.join('|')})/`, message: 'Shared provider code names no provider folder (docs/providers.md).' },
      NO_SESSIONS,
    ),
  },
  {
    files: ['src/kiosk/assets/**/*.js', 'src/oidc/login/assets/**/*.js', 'src/saml/assets/**/*.js', 'src/idcard/assets/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['examples/**/*.mjs', 'clients/typescript/examples/**/*.mjs', 'scripts/**/*.mjs', 'bin/**/*.js', 'jest.config.js'],
    languageOptions: { globals: globals.node },
  },
  prettier,
);
