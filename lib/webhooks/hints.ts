/**
 * What to do about each answer an incoming webhook can give. The platform answers 200 `ok`, or a plain-text
 * error code with a 4xx/5xx status (see the platform's webhook documentation); 429 is rate limiting.
 */
const HINTS: Record<string, string> = {
  invalid_payload: "The body is not valid JSON, or its fields have the wrong shape. Check the JSON payload.",
  no_text: 'The payload has nothing to post: add a "text" field (or blocks or attachments, with text as the fallback notifications show).',
  invalid_token: "The webhook's secret is wrong or was revoked. Reinstall the app, or paste the current URL.",
  action_prohibited: "An admin restricted posting to this channel. Pick another channel when you reinstall.",
  channel_not_found: "The webhook's channel was deleted or renamed. Reinstall the app and pick a channel again.",
  no_service: "The webhook was removed (the app was uninstalled or the hook deleted). Reinstall to get a new one.",
  no_active_hooks: "The webhook is turned off. Reinstall the app to get an active webhook.",
  channel_is_archived: "The channel is archived. Unarchive it, or reinstall and pick another channel.",
  posting_to_general_channel_denied: "Only admins may post to this channel. Pick another channel when you reinstall.",
  too_many_attachments: "The message has more than 100 attachments. Send fewer.",
  rollup_error: "The platform failed on its side. Try again in a moment.",
};

export function hintForWebhookAnswer(status: number, body: string): string | null {
  if (status === 200) return null;
  if (status === 429) return "Rate limited: webhooks accept about one message per second. Wait for Retry-After seconds and send again.";
  const code = body.trim();
  return (
    HINTS[code] ?? (status >= 500 ? "The platform failed on its side. Try again in a moment." : "The platform refused the message; its answer above says why.")
  );
}
