import "server-only";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql, type SQL } from "drizzle-orm";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { isAppError } from "@/lib/http/app-error";
import { dataDirFailure } from "./data-dir-failure";
import { lockDataDir } from "./data-dir-lock";
import { storeUnavailable } from "./errors";
import * as schema from "./schema";

/**
 * Opens the store's database, one SQL dialect on two engines: the embedded PGlite (Postgres compiled to
 * WebAssembly; one connection, in this process) under a data directory, or a PostgreSQL server through
 * DATABASE_URL (a pool for queries, and dedicated connections for the refresh locks and for LISTEN). Either
 * way the migrations in lib/store/migrations run first, under an advisory lock, so two instances starting
 * at once apply each migration once.
 */

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export const MEMORY = "memory://";
/** The first of the two int4 keys of every advisory lock the store takes ("SWBD"); the second names what it locks. */
export const ADVISORY_NAMESPACE = 0x53574244;
export const MIGRATIONS_FOLDER = path.join(process.cwd(), "lib", "store", "migrations");

export type BackendOptions =
  { kind: "pglite"; dataDir: string; migrationsFolder?: string } | { kind: "postgres"; url: string; migrationsFolder?: string; poolSize?: number };

export interface Backend {
  kind: "pglite" | "postgres";
  db: Db;
  /** How errors name it: "PGlite at <dir>", "PostgreSQL at host:port/db" (never the password). */
  where: string;
  /** PostgreSQL: a connection outside the query pool, for a session advisory lock or LISTEN. */
  dedicatedClient?: () => pg.Client;
  /** PostgreSQL: the small pool of connections that hold refresh locks, apart from the query pool. */
  lockPool?: pg.Pool;
  migrationsFolder: string;
  close(): Promise<void>;
}

type PgliteDb = ReturnType<typeof drizzlePglite<typeof schema>>;

async function migratePgliteDb(db: PgliteDb, migrationsFolder: string): Promise<void> {
  await db.execute(sql`select pg_advisory_lock(${ADVISORY_NAMESPACE}, hashtext('switchboard.migrations'))`);
  try {
    await migratePglite(db, { migrationsFolder });
  } finally {
    await db.execute(sql`select pg_advisory_unlock(${ADVISORY_NAMESPACE}, hashtext('switchboard.migrations'))`);
  }
}

/**
 * Applies the migrations on a connection of its own holding a session advisory lock: a second instance
 * starting at the same moment waits for it, then finds nothing left to do.
 */
async function migratePostgres(connect: () => pg.Client, migrationsFolder: string): Promise<void> {
  const client = connect();
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1, hashtext('switchboard.migrations'))", [ADVISORY_NAMESPACE]);
    try {
      await migrateNodePg(drizzleNodePg({ client, schema }), { migrationsFolder });
    } finally {
      await client.query("select pg_advisory_unlock($1, hashtext('switchboard.migrations'))", [ADVISORY_NAMESPACE]);
    }
  } finally {
    await client.end().catch(() => {});
  }
}

/** @internal Runs the migrations of an opened backend again (what every start does; a no-op when they all ran): the store's tests check they are idempotent. */
export async function migrate(backend: Backend): Promise<void> {
  if (backend.dedicatedClient) await migratePostgres(backend.dedicatedClient, backend.migrationsFolder);
  else await migratePgliteDb(backend.db as unknown as PgliteDb, backend.migrationsFolder);
}

/** The rows of a raw SQL query, on either engine (both drivers answer `{ rows }`): the key status's count, and the store's tests reading what is at rest. */
export async function rowsOf<R>(db: Db | Tx, query: SQL): Promise<R[]> {
  return ((await db.execute(query)) as unknown as { rows: R[] }).rows;
}

/** DATABASE_URL without its password: host, port and database. */
export function describePostgres(url: string): string {
  try {
    const u = new URL(url);
    return `PostgreSQL at ${u.hostname || "localhost"}:${u.port || "5432"}${u.pathname || "/"} (DATABASE_URL)`;
  } catch {
    return "PostgreSQL (DATABASE_URL)";
  }
}

async function openPglite(dataDir: string, migrationsFolder: string): Promise<Backend> {
  const memory = dataDir === MEMORY;
  const where = memory ? "PGlite in memory" : `PGlite at ${dataDir} (DATA_DIR)`;
  let unlock = () => {};
  if (!memory) {
    try {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw dataDirFailure(where, dataDir, error);
    }
    unlock = lockDataDir(dataDir);
  }
  let client: PGlite | undefined;
  try {
    // pg_trgm: the lists' search index (migration 0006); PostgreSQL has it in contrib.
    client = new PGlite(memory ? MEMORY : dataDir, { extensions: { pg_trgm } });
    await client.waitReady;
  } catch (error) {
    await client?.close().catch(() => {});
    unlock();
    // Files PGlite cannot start on (damaged, of another engine) or a folder it may not use: the operator's to fix, so say which and log why.
    throw memory ? storeUnavailable(where, error) : dataDirFailure(where, dataDir, error);
  }
  try {
    const db = drizzlePglite({ client, schema });
    await migratePgliteDb(db, migrationsFolder);
    const opened = client;
    return {
      kind: "pglite",
      db: db as unknown as Db,
      where,
      migrationsFolder,
      async close() {
        try {
          await opened.close();
        } finally {
          unlock();
        }
      },
    };
  } catch (error) {
    await client.close().catch(() => {});
    unlock();
    throw isAppError(error) ? error : storeUnavailable(where, error);
  }
}

async function openPostgres(url: string, migrationsFolder: string, poolSize: number): Promise<Backend> {
  const where = describePostgres(url);
  const common = { connectionString: url, connectionTimeoutMillis: 5_000 } satisfies pg.ClientConfig;
  const pool = new pg.Pool({ ...common, max: poolSize, idleTimeoutMillis: 30_000 });
  // Refresh locks wait inside the database (pg_advisory_lock), each on its own connection: never the query pool's.
  const lockPool = new pg.Pool({ ...common, max: 32, idleTimeoutMillis: 10_000 });
  // An idle connection that dies (a restarted server) emits here; without a listener it would end the process.
  pool.on("error", () => {});
  lockPool.on("error", () => {});
  const closeAll = async () => {
    await Promise.allSettled([pool.end(), lockPool.end()]);
  };
  const dedicatedClient = () => {
    const client = new pg.Client(common);
    client.on("error", () => {});
    return client;
  };
  try {
    await migratePostgres(dedicatedClient, migrationsFolder);
  } catch (error) {
    await closeAll();
    throw storeUnavailableOr(where, error);
  }
  return {
    kind: "postgres",
    db: drizzleNodePg({ client: pool, schema }) as unknown as Db,
    where,
    dedicatedClient,
    lockPool,
    migrationsFolder,
    close: closeAll,
  };
}

/** A database that cannot be reached at all is 503 store_unavailable; a failing migration stays what it is. */
function storeUnavailableOr(where: string, error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  const sqlState =
    typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith("08") && !code.startsWith("57") && !code.startsWith("28") && code !== "3D000";
  return sqlState ? error : storeUnavailable(where, error);
}

export async function openBackend(options: BackendOptions): Promise<Backend> {
  const migrationsFolder = options.migrationsFolder ?? MIGRATIONS_FOLDER;
  return options.kind === "pglite" ? openPglite(options.dataDir, migrationsFolder) : openPostgres(options.url, migrationsFolder, options.poolSize ?? 10);
}
