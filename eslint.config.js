// ESLint: the recommended JavaScript rules and typescript-eslint's type-checked recommended set.
// Formatting is Prettier's (npm run format:check), so eslint-config-prettier turns the style rules off.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier/flat';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'data/', 'examples/typed-rp/eid-gateway.d.ts'] },
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
  { files: ['src/kiosk/assets/**/*.js', 'src/oidc/assets/**/*.js'], languageOptions: { globals: globals.browser } },
  { files: ['examples/**/*.mjs', 'scripts/**/*.mjs', 'bin/**/*.js', 'jest.config.js'], languageOptions: { globals: globals.node } },
  prettier,
);
