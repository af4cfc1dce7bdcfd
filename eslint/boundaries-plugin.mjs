// The project's own lint rule: browser code loads no server-only module, at any depth. A path rule
// (import-x/no-restricted-paths, in eslint.config.mjs) keeps folders apart; this one follows the imports,
// so a browser-safe module that starts importing the store is caught where the browser reaches it, with
// the chain that leads there.
import path from "node:path";
import { createModuleGraph } from "./server-only-graph.mjs";

const graphs = new Map();

function graphFor(root) {
  let graph = graphs.get(root);
  if (!graph) {
    graph = createModuleGraph(root);
    graphs.set(root, graph);
  }
  return graph;
}

function isTypeOnly(node) {
  if (node.importKind === "type" || node.exportKind === "type") return true;
  const specifiers = node.specifiers ?? [];
  return specifiers.length > 0 && specifiers.every((s) => s.importKind === "type" || s.exportKind === "type");
}

function hasUseClient(program) {
  return program.body.some((s) => s.type === "ExpressionStatement" && s.directive === "use client");
}

const noServerOnlyInBrowser = {
  meta: {
    type: "problem",
    docs: { description: "Browser code must not load a module that imports server-only, directly or through others." },
    schema: [{ type: "object", properties: { onlyUseClient: { type: "boolean" } }, additionalProperties: false }],
    messages: {
      serverOnly:
        "Browser code may not load {{target}}: it reaches a server-only module ({{chain}}). Import a browser-safe module (a domain's universal/ folder), or import only types.",
    },
  },
  create(context) {
    const options = context.options[0] ?? {};
    const root = context.cwd;
    const filename = context.filename;
    const graph = graphFor(root);
    let applies = !options.onlyUseClient;

    function check(node, source) {
      if (!applies || !source || typeof source.value !== "string" || isTypeOnly(node)) return;
      const target = graph.resolve(source.value, filename);
      if (!target) return;
      const chain = graph.serverOnlyChain(target);
      if (!chain) return;
      context.report({
        node: source,
        messageId: "serverOnly",
        data: { target: source.value, chain: chain.map((f) => path.relative(root, f)).join(" → ") },
      });
    }

    return {
      Program(program) {
        if (options.onlyUseClient) applies = hasUseClient(program);
      },
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => (node.source.type === "Literal" ? check(node, node.source) : undefined),
    };
  },
};

export default { meta: { name: "switchboard-boundaries" }, rules: { "no-server-only-in-browser": noServerOnlyInBrowser } };
