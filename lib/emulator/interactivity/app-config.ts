/**
 * What an app's manifest says about its interactivity (read as given: the manifest schema keeps these keys
 * without checking them, as apps.manifest.export round-trips them): its slash commands
 * (`features.slash_commands`), its shortcuts (`features.shortcuts`) and where interactions go over HTTP
 * (`settings.interactivity`: `is_enabled`, `request_url`, `message_menu_options_url`). In Socket Mode the URLs
 * are not needed: everything travels over the app's connections.
 */
import { z } from "zod";
import type { App } from "../types";

const SlashCommand = z.looseObject({
  command: z.string().regex(/^\/[\w-]+$/),
  url: z.string().optional(),
  description: z.string().optional(),
  usage_hint: z.string().optional(),
  should_escape: z.boolean().optional(),
});
export type SlashCommand = z.infer<typeof SlashCommand>;

const Shortcut = z.looseObject({
  name: z.string().optional(),
  type: z.enum(["global", "message"]),
  callback_id: z.string().min(1),
  description: z.string().optional(),
});
export type Shortcut = z.infer<typeof Shortcut>;

const Interactivity = z.looseObject({
  is_enabled: z.boolean().optional(),
  request_url: z.string().optional(),
  message_menu_options_url: z.string().optional(),
});

/** The entries of a manifest list that read as `schema` (a malformed one is left out, not fatal). */
function entries<T>(value: unknown, schema: z.ZodType<T>): T[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

function features(app: App): Record<string, unknown> {
  return (app.manifest.features ?? {}) as Record<string, unknown>;
}

export function slashCommandsOf(app: App): SlashCommand[] {
  return entries(features(app).slash_commands, SlashCommand);
}

export function shortcutsOf(app: App): Shortcut[] {
  return entries(features(app).shortcuts, Shortcut);
}

function interactivityOf(app: App): z.infer<typeof Interactivity> | undefined {
  const parsed = Interactivity.safeParse((app.manifest.settings as Record<string, unknown> | undefined)?.interactivity);
  return parsed.success ? parsed.data : undefined;
}

/** The Interactivity Request URL, when interactivity is on (`is_enabled`, or a URL given without it). */
export function interactivityUrlOf(app: App): string | undefined {
  const settings = interactivityOf(app);
  if (!settings || settings.is_enabled === false) return undefined;
  return settings.request_url;
}

/** The Options Load URL external selects ask (`message_menu_options_url`): the platform asks no other. */
export function optionsLoadUrlOf(app: App): string | undefined {
  const settings = interactivityOf(app);
  if (!settings || settings.is_enabled === false) return undefined;
  return settings.message_menu_options_url;
}
