// npm run lint: typescript-eslint (type-aware where it matters), the Next.js rules, the rules of hooks, and
// no import cycles. Formatting is Prettier's (npm run format), so eslint-config-prettier turns off the
// stylistic rules that would disagree with it.
import nextPlugin from "@next/eslint-plugin-next";
import prettier from "eslint-config-prettier";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".next-*/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
      "lib/explorer/catalog/methods.generated.ts",
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,mts,mjs}"],
    plugins: { "@next/next": nextPlugin, "react-hooks": reactHooks, "import-x": importX },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })] },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs["core-web-vitals"].rules,
      // The rules of hooks, their dependencies, and the plugin's React Compiler diagnostics (refs read during
      // render, state set in an effect to mirror something outside React, impure renders…): the console does
      // not build with the compiler, but what they find is what makes a component's render hard to follow.
      ...reactHooks.configs["recommended-latest"].rules,
      "react-hooks/exhaustive-deps": "error",
      "react-hooks/incompatible-library": "error",
      "react-hooks/unsupported-syntax": "error",
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-self-import": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports", disallowTypeAnnotations: false }],
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    // Scripts, benchmarks and tests print what they measure and found.
    files: ["scripts/**", "bench/**", "tests/**", "instrumentation*.ts"],
    rules: { "no-console": "off" },
  },
  prettier,
);
