import "server-only";
import pino from "pino";
import { getConfig } from "@/lib/config";

/** Every field that can hold a secret, wherever it appears (one or two levels deep). */
const SECRET_KEYS = [
  "token",
  "access_token",
  "refresh_token",
  "refreshToken",
  "accessToken",
  "client_secret",
  "clientSecret",
  "authorization",
  "Authorization",
  "cookie",
  "Cookie",
  "set-cookie",
  "webhookUrl",
  "webhook_url",
  "password",
];

const REDACT_PATHS = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((k) => `*.${k}`),
  ...SECRET_KEYS.map((k) => `*.*.${k}`),
  "incoming_webhook.url",
  "*.incoming_webhook.url",
  "incomingWebhook.url",
  "*.incomingWebhook.url",
  "headers.authorization",
  "headers.cookie",
  "*.headers.authorization",
  "*.headers.cookie",
];

/** A logger with the console's redaction; `destination` lets tests read what it writes. */
export function createLogger(level: string, destination?: pino.DestinationStream): pino.Logger {
  const options = { name: "switchboard", level, redact: { paths: REDACT_PATHS, censor: "[redacted]" } };
  return destination ? pino(options, destination) : pino(options);
}

let instance: pino.Logger | undefined;

function getLogger(): pino.Logger {
  // Built at first use, not at import: the configuration (and its log level) is read once, when needed.
  instance ??= createLogger(getConfig().logLevel);
  return instance;
}

/** The server's logger: tokens, refresh tokens, client secrets, cookies and webhook URLs are always redacted. */
export const logger: pino.Logger = new Proxy({} as pino.Logger, {
  get(_target, key) {
    const real = getLogger();
    const value: unknown = Reflect.get(real, key);
    return typeof value === "function" ? value.bind(real) : value;
  },
});
