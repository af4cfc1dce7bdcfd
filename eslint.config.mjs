// npm run lint: typescript-eslint (type-aware where it matters), the Next.js rules, the rules of hooks, and
// no import cycles. Formatting is Prettier's (npm run format), so eslint-config-prettier turns off the
// stylistic rules that would disagree with it.
import nextPlugin from "@next/eslint-plugin-next";
import prettier from "eslint-config-prettier";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import boundaries from "./eslint/boundaries-plugin.mjs";

// Folders of the console's domains: lib/http and lib/platform (the wire and the route wrapper's parts) import
// none of them.
const DOMAINS = [
  "access",
  "app-config",
  "call",
  "emulator-admin",
  "events",
  "explorer",
  "installations",
  "oauth",
  "ops",
  "platform-clock",
  "session",
  "signin",
  "store",
  "token-api",
  "webhooks",
].map((domain) => `./lib/${domain}`);

const STORE_READS_NO_REQUEST = "A store module does not read the request (next/headers): take what it needs as a parameter.";

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
    // What may import what (issue 29). The emulator is a package of its own: it imports nothing of the
    // console, which configures it from outside (lib/embedded-emulator.ts). lib/http and lib/platform are the
    // wire: no session, no domain. Nothing but the console's pages and routes imports app/.
    files: ["**/*.{ts,tsx,mts,mjs}"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: "./lib/emulator",
              from: "./",
              except: ["./lib/emulator", "./node_modules"],
              message: "The emulator imports nothing outside lib/emulator: pass what it needs as createEmulator options.",
            },
            {
              target: ["./lib/http", "./lib/platform"],
              from: [...DOMAINS, "./components", "./app"],
              message: "lib/http and lib/platform import no session or domain code: take what they need as a parameter.",
            },
            {
              // Issue 38: a store keeps what it is given. Who is asking (lib/access, lib/session) and the
              // request's cookies (the jar, the sealed cookie) are the caller's to read and pass in.
              target: "./lib/store",
              from: ["./lib/access", "./lib/session", "./lib/http/cookie-jar.ts", "./lib/http/sealed-cookie.ts"],
              message: "A store module reads neither the viewer nor the request: take who is asking (or the holder) as a parameter.",
            },
            {
              target: ["./lib", "./components"],
              from: "./app",
              message: "Only the console's pages and routes live in app/: nothing imports them.",
            },
          ],
        },
      ],
    },
  },
  {
    // The request's headers and cookies are next/headers', read by the route: a store module that read them
    // would answer differently for the same arguments (issue 38).
    files: ["lib/store/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "next/headers", message: STORE_READS_NO_REQUEST }] }],
      "no-restricted-syntax": ["error", { selector: "ImportExpression[source.value='next/headers']", message: STORE_READS_NO_REQUEST }],
    },
  },
  {
    // Browser code (components, the browser's hooks and models, a domain's universal/ part, and any module
    // that says "use client") loads no server-only module, at any depth.
    files: ["components/**/*.{ts,tsx}", "lib/swr/**/*.{ts,tsx}", "lib/explorer/**/*.{ts,tsx}", "lib/**/universal/**/*.{ts,tsx}"],
    plugins: { boundaries },
    rules: { "boundaries/no-server-only-in-browser": "error" },
  },
  {
    files: ["app/**/*.tsx"],
    plugins: { boundaries },
    rules: { "boundaries/no-server-only-in-browser": ["error", { onlyUseClient: true }] },
  },
  {
    // Scripts, benchmarks and tests print what they measure and found.
    files: ["scripts/**", "bench/**", "tests/**", "instrumentation*.ts"],
    rules: { "no-console": "off" },
  },
  prettier,
);
