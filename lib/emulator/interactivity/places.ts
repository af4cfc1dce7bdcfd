/**
 * What an interaction on a message or in a view adds to its payload: the `container`, the `channel` and
 * `message` (with a response_url) or the `view` (with the member's `state.values`), and the blocks in which
 * the member acted.
 */
import type { RequestContext } from "../types";
import { wireMessage } from "../web-api/methods/chat";
import { wireView } from "../web-api/methods/views";
import { stateValues } from "./block-walk";
import { channelPart, type Place } from "./parts";
import { mintResponseUrl } from "./response-urls";
import { viewEntries } from "./side-state";

type Json = Record<string, unknown>;
type Values = Record<string, Record<string, Json>>;

export function blocksOf(place: Place): unknown {
  return place.kind === "view" ? place.view.view.blocks : place.message.blocks;
}

export function containerOf(place: Place): Json {
  if (place.kind === "view") return { type: "view", view_id: place.view.id };
  return { type: "message", message_ts: place.message.ts, channel_id: place.channel.id, is_ephemeral: place.ephemeral };
}

/** The view as an interaction shows it: the platform's view object with what the member entered. */
export function viewWithState(ctx: RequestContext, place: Extract<Place, { kind: "view" }>): Json {
  const entered = viewEntries(ctx.state, place.view.id).values;
  return { ...wireView(place.view), state: { values: stateValues(place.view.view.blocks, entered) } };
}

function messageObject(place: Extract<Place, { kind: "message" }>): Json {
  if (!place.ephemeral) return { ...wireMessage(place.message) };
  const { message } = place;
  return {
    type: "message",
    subtype: "bot_message",
    ts: message.ts,
    text: message.text,
    bot_id: message.botId,
    app_id: message.appId,
    ...(message.blocks ? { blocks: message.blocks } : {}),
  };
}

/**
 * The payload's fields for where the member acted. On a message: `channel`, `message`, `state` (its elements'
 * values, `entered` among them) and a fresh `response_url` (`withResponseUrl`); in a view: `view`, whose
 * `state` is the member's entries.
 */
export function placeFields(ctx: RequestContext, place: Place, user: string, entered: Values, withResponseUrl: boolean): Json {
  if (place.kind === "view") return { view: viewWithState(ctx, place) };
  const fields: Json = {
    channel: channelPart(place.channel),
    message: messageObject(place),
    state: { values: stateValues(place.message.blocks, entered) },
  };
  if (withResponseUrl) {
    const { installation } = place;
    fields.response_url = mintResponseUrl(ctx, { kind: "actions", installation, channelId: place.channel.id, userId: user, messageTs: place.message.ts });
  }
  return fields;
}
