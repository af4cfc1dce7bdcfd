/**
 * The emoji names a reaction may take: the platform's standard emoji (standard-emoji.json, where its source
 * is named), a skin tone on those that have one. The platform also takes the workspace's custom emoji; the
 * emulated workspace has none, so the standard names are the whole list.
 */
import standard from "./standard-emoji.json";

const NAMES = new Set(standard.names);
const SKIN_TONES = new Set(standard.skinTones);
const SKIN_TONE = /^(.+)::skin-tone-[2-6]$/;

/** Whether `name` (colons left off) is an emoji: `thumbsup`, `+1`, `wave::skin-tone-3`. */
export function isEmojiName(name: string): boolean {
  const toned = SKIN_TONE.exec(name);
  return toned ? SKIN_TONES.has(toned[1] as string) : NAMES.has(name);
}
