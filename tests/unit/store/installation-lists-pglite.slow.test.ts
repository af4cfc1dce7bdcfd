import { openBackend } from "@/lib/store/backend";
import { listsContract } from "./support/lists-contract";

// In memory: the suite forgets what each test wrote, and PGlite's engine is the same on disk.
listsContract("PGlite", () => openBackend({ kind: "pglite", dataDir: "memory://" }));
