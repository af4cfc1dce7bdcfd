/**
 * What the explorer's preview shows for a request: the message a chat.* call would post, or the view a
 * views.* call would open or publish, read from the arguments as typed (JSON strings), with a note for each
 * argument that does not parse or is not what the platform takes. Other methods have no preview.
 */
import type { MessageContent } from "@/components/blocks/message";

const MESSAGE_METHODS = new Set(["chat.postMessage", "chat.postEphemeral", "chat.update", "chat.scheduleMessage"]);
const VIEW_METHODS = new Set(["views.open", "views.push", "views.update", "views.publish"]);

export type Preview =
  { kind: "message"; message: MessageContent; ephemeral: boolean; notes: string[] } | { kind: "view"; view: Record<string, unknown> | null; notes: string[] };

type Parsed = { ok: true; value: unknown } | { ok: false; note: string };

function parseArgument(name: string, source: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(source) };
  } catch (error) {
    return { ok: false, note: `${name} does not parse as JSON (${error instanceof Error ? error.message : String(error)}): the preview shows the rest.` };
  }
}

/** A JSON array argument (blocks, attachments): the array, or a note saying why not. */
function listArgument(name: string, source: string | undefined, notes: string[]): unknown[] | undefined {
  if (source === undefined || source.trim() === "") return undefined;
  const parsed = parseArgument(name, source);
  if (!parsed.ok) {
    notes.push(parsed.note);
    return undefined;
  }
  if (!Array.isArray(parsed.value)) {
    notes.push(`${name} is not a list of ${name}: the platform takes a JSON array${name === "blocks" ? ' ([{"type": "section", …}])' : ""}.`);
    return undefined;
  }
  const untyped = parsed.value.filter((b) => typeof b !== "object" || b === null || typeof (b as { type?: unknown }).type !== "string").length;
  if (name === "blocks" && untyped > 0) notes.push(`${untyped} of the blocks ${untyped === 1 ? "has" : "have"} no type: the platform refuses them.`);
  return parsed.value;
}

export function previewOf(method: string, args: ReadonlyMap<string, string>): Preview | null {
  const notes: string[] = [];
  if (MESSAGE_METHODS.has(method)) {
    const blocks = listArgument("blocks", args.get("blocks"), notes);
    const attachments = listArgument("attachments", args.get("attachments"), notes);
    const text = args.get("text") ?? "";
    const message: MessageContent = { text, ...(blocks ? { blocks } : {}), ...(attachments ? { attachments } : {}) };
    return { kind: "message", message, ephemeral: method === "chat.postEphemeral", notes };
  }
  if (VIEW_METHODS.has(method)) {
    const source = args.get("view");
    if (source === undefined || source.trim() === "") return { kind: "view", view: null, notes: ["Type the view (a JSON object) to see it here."] };
    const parsed = parseArgument("view", source);
    if (!parsed.ok) return { kind: "view", view: null, notes: [parsed.note] };
    const view = parsed.value;
    if (typeof view !== "object" || view === null || Array.isArray(view)) {
      return { kind: "view", view: null, notes: ['view is not a view: the platform takes a JSON object ({"type": "modal", …}).'] };
    }
    const type = (view as { type?: unknown }).type;
    if (type !== "modal" && type !== "home") notes.push(`view's type is ${JSON.stringify(type) ?? "missing"}: the platform takes "modal" or "home".`);
    if ((view as { blocks?: unknown }).blocks !== undefined && !Array.isArray((view as { blocks?: unknown }).blocks)) {
      notes.push("view's blocks is not a list of blocks: the platform takes a JSON array.");
    }
    return { kind: "view", view: view as Record<string, unknown>, notes };
  }
  return null;
}
