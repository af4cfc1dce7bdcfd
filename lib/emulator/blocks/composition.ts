/**
 * Block Kit's composition objects (https://docs.slack.dev/reference/block-kit/composition-objects): the
 * option, option group, confirmation dialog, dispatch configuration and filters elements are built from.
 */
import { anyText, bool, listOf, num, obj, plainText, str, URL_MAX, type ObjectSpec } from "./schema";

const option: ObjectSpec = {
  fields: { text: anyText(75, true), value: str(150, true), description: plainText(75), url: str(URL_MAX) },
};

export const COMPOSITION: Readonly<Record<string, ObjectSpec>> = {
  option,
  option_group: { fields: { label: plainText(75, true), options: listOf(obj("option"), 100, true) } },
  confirm: {
    fields: {
      title: plainText(100, true),
      text: plainText(300, true),
      confirm: plainText(30, true),
      deny: plainText(30, true),
      style: { kind: "string", oneOf: ["primary", "danger"] },
    },
  },
  dispatch_action_config: {
    fields: { trigger_actions_on: listOf({ kind: "string", oneOf: ["on_enter_pressed", "on_character_entered"] }, 2) },
  },
  conversation_filter: {
    fields: {
      include: listOf({ kind: "string", oneOf: ["im", "mpim", "private", "public"] }, 4),
      exclude_external_shared_channels: bool,
      exclude_bot_users: bool,
    },
  },
  slack_file: { fields: { url: str(URL_MAX), id: str(255) }, either: ["url", "id"] },
  workflow: { fields: { trigger: { kind: "any", required: true } } },
  max_selected: { fields: { value: num } },
};
