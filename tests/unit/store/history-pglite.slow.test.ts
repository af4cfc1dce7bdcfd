import { openBackend, MEMORY } from "@/lib/store/backend";
import { historyContract } from "./support/history-contract";

historyContract("PGlite", () => ({ openBackend: () => openBackend({ kind: "pglite", dataDir: MEMORY }) }));
