/**
 * Every error code the console answers with of its own, each with its one HTTP status and the message a
 * person can act on; a throw site may say more than that message (`new AppError("payload_too_large",
 * { message: … })`), never change the status. docs/errors.md's table lists the same rows
 * (tests/unit/http/error-codes.test.ts keeps them alike). Errors the console only relays keep their
 * upstream's code and are not here: the platform's (lib/platform/errors.ts) and the emulator admin surface's.
 */
export const CONSOLE_ERRORS = {
  // Any route (lib/http)
  invalid_request: { status: 422, message: "The request is not valid." },
  invalid_json: { status: 400, message: "The request body must be JSON." },
  json_too_deep: { status: 400, message: "The JSON body nests deeper than 64 levels of arrays and objects." },
  nul_character: { status: 400, message: "A text in the request holds a NUL character (\\u0000), which the console does not keep: remove it and send again." },
  unsupported_media_type: { status: 415, message: "Send parameters as application/x-www-form-urlencoded or application/json." },
  payload_too_large: { status: 413, message: "The request body is larger than this route accepts." },
  request_aborted: { status: 499, message: "The request was cancelled." },
  navigation_refused: {
    status: 403,
    message: "The console's API does not act on links opened in the browser (from a mail, a chat or a bookmark): use the console's pages.",
  },
  forbidden_origin: { status: 403, message: "Cross-site requests are not allowed on this route." },
  forbidden_host: {
    status: 403,
    message:
      "This console does not answer requests for this host name: open it at the address it was set up for. If people are to open it at this one, its operator sets APP_ORIGIN to it and restarts.",
  },
  too_many_cookies: {
    status: 431,
    message: "The request carried more cookies than the server reads (at most 100; this console sets fewer than ten): clear this site's cookies and try again.",
  },
  listening_exposed: {
    status: 503,
    message:
      "The server listens on an address other machines reach while its configuration says this machine only, so it serves nothing: start it with npm start, or set HOST.",
  },
  missing_origin: { status: 403, message: "This route changes state and needs an Origin header naming the console (browsers send it; scripts must set it)." },
  internal_error: { status: 500, message: "Something went wrong on the server. Try again." },
  store_unavailable: {
    status: 503,
    message:
      "The console's store (its database) is unavailable, so nothing was changed. Check that DATABASE_URL's PostgreSQL is running and reachable, or that DATA_DIR is readable and writable, then try again.",
  },

  // Operating a hosted instance (lib/ops)
  metrics_disabled: { status: 404, message: "Metrics are off on this instance: set METRICS_TOKEN to serve them at /api/metrics." },
  metrics_token_required: {
    status: 401,
    message: "Send the instance's METRICS_TOKEN as a bearer token (Authorization: Bearer …; in Prometheus, the scrape job's authorization).",
  },

  // Signing in (lib/signin, with AUTH_MODE=oidc)
  sign_in_required: {
    status: 401,
    message: "Sign in first: this console signs people in with the platform. Open it in a browser: its sign-in page is /signin.",
  },

  // Who sees and does what (lib/access)
  not_allowed: {
    status: 403,
    message: "Only an admin (ADMIN_USERS) or the member who installed this app may do this.",
  },

  // The embedded emulator's admin surface under /emulator/admin, when people sign in (lib/access/emulator-admin-gate.ts)
  emulator_admin_only: {
    status: 403,
    message:
      "Only an admin (ADMIN_USERS) may use the embedded emulator's admin surface: it shows the apps' secrets, acts as any member, moves the clock and resets the emulator. A script sends Authorization: Bearer <EMULATOR_ADMIN_TOKEN>.",
  },

  // Lists of installations (lib/installations/list-cursor.ts)
  invalid_cursor: {
    status: 400,
    message: "The list's cursor is not one this console gave: start again from the first page (leave out `after` and `before`).",
  },

  // Calls to the platform (lib/platform)
  invalid_method: { status: 400, message: "A method name may only contain letters, digits and dots." },
  upstream_timeout: { status: 504, message: "The platform did not answer in time." },
  upstream_unreachable: { status: 502, message: "The platform could not be reached." },
  upstream_bad_answer: { status: 502, message: "The platform's answer did not have the expected shape." },

  // Fetch all (lib/explorer)
  too_many_walks: { status: 429, message: "The server runs as many Fetch all walks as it can at once: try again shortly." },

  // Installations and their tokens (lib/installations with its rotation/, lib/oauth)
  unknown_installation: { status: 404, message: "No installation with this id." },
  no_token: { status: 400, message: "This installation has no token of this kind." },
  not_rotating: { status: 400, message: "This token is long-lived: exchange it first to get a refresh token." },
  already_rotating: { status: 409, message: "This token already rotates: it was exchanged (or issued with rotation on), and a token is exchanged once." },
  needs_reinstall: { status: 409, message: 'This installation needs to be installed again: use "Reinstall".' },
  unknown_app: { status: 400, message: "The emulator's legacy app only exists when the upstream is the embedded emulator." },
  refresh_in_progress: {
    status: 503,
    message: "Another request is refreshing this token and has not finished yet. The stored tokens are unchanged: try again in a few seconds.",
  },
  cookie_too_large: { status: 507, message: "This data does not fit in one browser cookie." },

  // The token API for the app's own backend (lib/token-api)
  invalid_api_key: {
    status: 401,
    message: "Send a Switchboard API key as Authorization: Bearer sbk_… (an admin creates one on the API keys page).",
  },
  api_key_revoked: { status: 403, message: "This API key was revoked: ask an admin for a new one." },
  browser_not_allowed: {
    status: 403,
    message: "The token API answers the app's own backend, never a browser: a request with Origin, Cookie or Sec-Fetch-* headers is refused.",
  },
  token_api_rate_limited: {
    status: 429,
    message: "Too many token requests with this API key: wait as Retry-After says, and keep the token you were given until it nears expiry.",
  },
  unknown_user_token: { status: 404, message: "This person has no user token in this installation: they install the app with user scopes to get one." },
  unknown_api_key: { status: 404, message: "No API key with this id." },

  // The Events API request URL and the live feed (lib/events)
  invalid_signature: { status: 401, message: "The request's signature is missing, stale or does not match." },
  request_timeout: { status: 408, message: "The request body did not arrive in time." },
  body_aborted: { status: 400, message: "The request body ended before it was complete." },
  invalid_payload: { status: 400, message: "The body is not an Events API JSON envelope." },
  too_many_streams: { status: 429, message: "The server holds as many live event feeds as it can: try again shortly." },

  // The embedded emulator's admin surface, as the console uses it (its client: lib/emulator-admin)
  not_emulator: { status: 404, message: "The console is connected to the real platform: the emulator's admin surface is not available." },
  invalid_clock_move: {
    status: 400,
    message: "The emulator's clock moves only forward, by more than nothing and at most ten years ahead in all: choose a later time within that.",
  },
  emulator_unreachable: { status: 502, message: "The emulator's admin surface did not answer." },
  emulator_admin_refused: { status: 502, message: "The emulator's admin surface refused the console's credential." },
  emulator_answer_malformed: { status: 502, message: "The emulator's admin surface answered in a shape this console does not read." },
  emulator_error: { status: 502, message: "The emulator did not issue a configuration token." },
  no_app_id: { status: 409, message: "This installation does not record its app id: reinstall it." },
  request_url_not_verified: {
    status: 409,
    message: "The emulator sends events only to a verified request URL, and this app's request URL did not answer its url_verification challenge.",
  },

  // App settings (lib/app-config)
  config_token_required: {
    status: 409,
    message:
      'Against the platform, app settings are read and changed with an app configuration token: generate one on your Your Apps page (api.slack.com/apps, "Your App Configuration Tokens", Generate Token) for the workspace the app belongs to, and paste both the token and its refresh token.',
  },
  config_token_refused: {
    status: 409,
    message: "The platform refused the app configuration token. Paste a new app configuration token (generate one on your Your Apps page).",
  },
  config_token_unreadable: {
    status: 400,
    message:
      "The app configuration token an earlier version kept in this browser could not be read (its cookie was changed, or sealed with a password this server no longer has), so it was removed: paste a configuration token again.",
  },
  invalid_config_token: { status: 400, message: "The token and the refresh token are the same string: paste each in its own field." },
  app_not_found: { status: 404, message: "No such app." },
  invalid_manifest: { status: 400, message: "The platform refused the manifest, so nothing changed." },
  no_scopes: { status: 400, message: "An app needs at least one bot or user scope." },
  invalid_scope: {
    status: 400,
    message: "The platform has no such scope for this kind of token (its scopes page, api.slack.com/scopes, lists them), so nothing was saved.",
  },
  no_request_url: { status: 409, message: "This app has no event request URL to verify." },
  verify_not_available: {
    status: 409,
    message:
      "The platform's App Manifest API cannot send a request URL a new challenge: use Retry beside the Request URL on the app's Event Subscriptions page.",
  },
  enable_events_not_available: {
    status: 409,
    message:
      "The platform's App Manifest API cannot enable an app's events again: use Enable on the app's Event Subscriptions page (api.slack.com/apps, your app).",
  },
  platform_error: { status: 502, message: "The platform answered with an error." },

  // Incoming webhooks (lib/webhooks)
  unknown_webhook: { status: 404, message: "No webhook with this id: reload the list." },
  invalid_webhook_url: { status: 400, message: "This is not a webhook URL the proxy may post to." },
  too_many_webhooks: { status: 409, message: "As many pasted webhooks as the console keeps (100) are kept already: remove one first." },
  webhook_refused: { status: 400, message: "The proxy refused to post to this webhook." },
  webhook_timeout: { status: 504, message: "The webhook did not answer in time." },
  webhook_unreachable: { status: 502, message: "The webhook host could not be reached." },

  // The explorer's history (lib/history)
  unknown_history_entry: { status: 404, message: "No entry with this id in your history: it was cleared, or pruned as older than its bounds." },
  // Saved requests and collections (lib/collections)
  unknown_collection: { status: 404, message: "No collection with this id that you may open: reload the list." },
  unknown_saved_request: { status: 404, message: "No saved request with this id in this collection: reload it." },
  too_many_collections: { status: 409, message: "You keep as many collections as the console allows (200): delete one first." },
  collection_full: { status: 409, message: "This collection holds as many requests as the console allows (200): start another collection." },
  order_mismatch: {
    status: 409,
    message: "The new order does not name each request of the collection once (it changed meanwhile): reload it and reorder again.",
  },
  invalid_collection_file: { status: 400, message: "This file is not a collection the console reads (its own NDJSON format, or a Postman collection v2.1)." },
} as const satisfies Record<string, { status: number; message: string }>;

export type ConsoleErrorCode = keyof typeof CONSOLE_ERRORS;
