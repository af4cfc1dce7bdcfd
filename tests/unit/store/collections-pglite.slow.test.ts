import { openBackend } from "@/lib/store/backend";
import { collectionsContract } from "./support/collections-contract";

// In memory: the collections' contract needs no data directory of its own.
collectionsContract("PGlite", () => openBackend({ kind: "pglite", dataDir: "memory://" }));
