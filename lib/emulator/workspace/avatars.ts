import type { RequestContext } from "../types";
import { AVATAR_SIZES, avatarFace, type AvatarSize } from "./members";

/**
 * Profile images: GET {base}/avatars/{userId}/{avatarHash}-{size}.svg, a small deterministic SVG
 * (initials on the member's color). The avatar hash is part of the URL, so a response never changes
 * and may be cached for good.
 */

const PATH = /^(U0[0-9A-Z]{7})\/([0-9a-g][0-9a-f]{11})-(\d+|original)\.svg$/;
const ORIGINAL_SIZE = 1024;

function notFound(): Response {
  return new Response("not_found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function renderAvatarSvg(initials: string, color: string, size: number): string {
  const font = Math.round(size * 0.42);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `<rect width="${size}" height="${size}" rx="${Math.round(size * 0.12)}" fill="#${color}"/>` +
    `<text x="50%" y="50%" dy=".35em" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" ` +
    `font-size="${font}" font-weight="600" fill="#ffffff">${escapeXml(initials)}</text></svg>`
  );
}

/** Serves one avatar; `rest` is the path after /avatars/. */
export function handleAvatar(ctx: RequestContext, rest: string): Response {
  const match = PATH.exec(rest);
  if (!match) return notFound();
  const [, userId, hash, sizeText] = match as unknown as [string, string, string, string];
  const size: AvatarSize = sizeText === "original" ? "original" : (Number(sizeText) as AvatarSize);
  if (size !== "original" && !AVATAR_SIZES.includes(size)) return notFound();
  // Member ids are scrambled per workspace: the workspace that knows the id is the member's.
  const face = [...ctx.state.workspaces.values()].map((ws) => avatarFace(ws, userId)).find(Boolean);
  if (!face || face.avatarHash !== hash) return notFound();

  const etag = `"${hash}-${sizeText}"`;
  const headers = {
    "content-type": "image/svg+xml",
    "cache-control": "public, max-age=31536000, immutable",
    etag,
  };
  if (ctx.request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  const body = renderAvatarSvg(face.initials, face.color, size === "original" ? ORIGINAL_SIZE : size);
  return new Response(ctx.request.method === "HEAD" ? null : body, { status: 200, headers });
}
