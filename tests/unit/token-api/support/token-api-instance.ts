/**
 * A second console instance for the token API's two-instance tests: a process of its own (its own store,
 * caches and LISTEN connections, as another server behind a load balancer) that serves the token route over
 * HTTP on an ephemeral port, with the environment it was started with (the same DATABASE_URL and
 * SESSION_PASSWORD as the test's own instance). It prints `listening <port>` once up. Started by
 * startTokenApiInstance (instance.ts) with `node --conditions=react-server --import tsx`.
 */
import { createServer } from "node:http";
import { GET as tokenRoute } from "@/app/api/v1/installations/[teamId]/token/route";
import { getStore } from "@/lib/store";

const TOKEN_PATH = /^\/api\/v1\/installations\/([^/]+)\/token$/;

const server = createServer((req, res) => {
  void (async () => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const match = TOKEN_PATH.exec(url.pathname);
    if (!match) {
      res.writeHead(404).end();
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const request = new Request(url, { headers });
    const response = await tokenRoute(request, { params: Promise.resolve({ teamId: decodeURIComponent(match[1]!) }) });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  })().catch(() => res.writeHead(500).end());
});

// The store is opened (and its LISTEN connections up) before the instance says it is ready.
void getStore().then(() =>
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    process.stdout.write(`listening ${typeof address === "object" && address ? address.port : 0}\n`);
  }),
);
process.on("SIGTERM", () => {
  server.close();
  void getStore()
    .then((store) => store.close())
    .finally(() => process.exit(0));
});
