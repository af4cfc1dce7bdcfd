/**
 * The two file routes outside `/api`:
 *
 * - `POST {base}/upload/v1/{ticket}`: the upload URL files.getUploadURLExternal hands out. As the
 *   platform's (https://docs.slack.dev/messaging/working-with-files#uploading_files), it takes the bytes
 *   either as the raw body or as a multipart/form-data file part (the official JavaScript client's
 *   uploadV2 sends a multipart part; `curl -F filename=@file` does too), needs no token (the URL is the
 *   credential), and answers 200 `OK - <bytes>` in plain text. No more than the length the app declared
 *   (413 `payload_too_large` past it) and the emulator's Web API body cap (`maxBodyBytes.webApi`, 413 too).
 *   A second POST before files.completeUploadExternal replaces the bytes; an unknown or completed ticket is 404.
 * - `GET {base}/files-pri/{team}-{file}/[download/]{name}`: a file's `url_private` and
 *   `url_private_download`, which need a token of the workspace in `Authorization: Bearer`, as the
 *   platform's do; 404 for an unknown or deleted file.
 */
import { PlainTextError } from "../core/errors";
import { workspaceOf } from "../store";
import { requireAccessToken } from "../tokens/tokens";
import type { RequestContext } from "../types";
import { readToken } from "../web-api/request-params";
import { touch } from "../core/change-tracking";

const text = (body: string, status = 200) => new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } });

/** The bytes of an upload: the first file part of a multipart body, else the body itself. */
async function uploadedBytes(request: Request): Promise<Uint8Array> {
  const contentType = (request.headers.get("content-type") ?? "").toLowerCase();
  if (contentType.includes("multipart/form-data")) {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new PlainTextError(400, "invalid_form_data");
    }
    for (const [, value] of form) {
      if (typeof value !== "string") return new Uint8Array(await value.arrayBuffer());
    }
    // A form without a file part: its first field's text is the content (`-F content=…`).
    const first = [...form.values()][0];
    if (typeof first === "string") return new TextEncoder().encode(first);
    throw new PlainTextError(400, "invalid_form_data");
  }
  return new Uint8Array(await request.arrayBuffer());
}

export async function handleFileUpload(ctx: RequestContext, ticket: string): Promise<Response> {
  for (const ws of ctx.state.workspaces.values()) {
    const fileId = ws.files.tickets.get(ticket);
    const pending = fileId ? ws.files.pending.get(fileId) : undefined;
    if (!pending) continue;
    const bytes = await uploadedBytes(ctx.request);
    if (bytes.byteLength > pending.length) throw new PlainTextError(413, "payload_too_large");
    pending.bytes = bytes;
    touch(pending);
    return text(`OK - ${bytes.byteLength}`);
  }
  throw new PlainTextError(404, "not_found");
}

const PRIVATE_PATH = /^(T0[0-9A-Z]{7})-(F0[0-9A-Z]+)\/(?:download\/)?[^/]+$/;

export function handleFileDownload(ctx: RequestContext, path: string): Response {
  const match = PRIVATE_PATH.exec(path);
  const ws = match ? ctx.state.workspaces.get(match[1]!) : undefined;
  const file = ws && match ? ws.files.files.get(match[2]!) : undefined;
  if (!ws || !file || file.deleted) throw new PlainTextError(404, "not_found");
  let teamId: string;
  try {
    teamId = requireAccessToken(ctx.state, readToken(ctx.request, {}), ctx.clock.now()).teamId;
  } catch {
    throw new PlainTextError(401, "not_authed");
  }
  if (workspaceOf(ctx.state, teamId) !== ws) throw new PlainTextError(404, "not_found");
  return new Response(new Uint8Array(file.bytes), {
    status: 200,
    headers: { "content-type": file.mimetype, "content-length": String(file.bytes.byteLength) },
  });
}
