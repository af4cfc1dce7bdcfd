// Stand-in for the `server-only` marker package in unit tests (see vitest.config.ts).
