import type { RequestContext } from "../types";
import { AVATAR_SIZES, avatarFace, type AvatarSize } from "./members";

/**
 * Profile images: GET {base}/avatars/{userId}/{avatarHash}-{size}.svg, a small deterministic SVG
 * (initials on the member's color). The avatar hash is part of the URL, so a response never changes
 * and may be cached for good. A workspace's default icon (the sign-in's team_image_* claims) is
 * GET {base}/avatars/{teamId}/default-{size}.svg: the workspace's initials, in the sizes the platform gives.
 */

const PATH = /^(U0[0-9A-Z]{7})\/([0-9a-g][0-9a-f]{11})-(\d+|original)\.svg$/;
const TEAM_PATH = /^(T0[0-9A-Z]{7})\/default-(\d+)\.svg$/;
export const TEAM_IMAGE_SIZES = [34, 44, 68, 88, 102, 132, 230] as const;
const TEAM_COLOR = "3f0e40";
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

export function teamImageUrl(baseUrl: string, teamId: string, size: (typeof TEAM_IMAGE_SIZES)[number]): string {
  return `${baseUrl}/avatars/${teamId}/default-${size}.svg`;
}

function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? "")
    .join("");
}

function svgResponse(ctx: RequestContext, etag: string, body: string): Response {
  const headers = {
    "content-type": "image/svg+xml",
    "cache-control": "public, max-age=31536000, immutable",
    etag,
  };
  if (ctx.request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(ctx.request.method === "HEAD" ? null : body, { status: 200, headers });
}

function handleTeamImage(ctx: RequestContext, teamId: string, sizeText: string): Response {
  const size = Number(sizeText) as (typeof TEAM_IMAGE_SIZES)[number];
  const ws = ctx.state.workspaces.get(teamId);
  if (!ws || !TEAM_IMAGE_SIZES.includes(size)) return notFound();
  return svgResponse(ctx, `"${teamId}-${size}"`, renderAvatarSvg(initialsOf(ws.team.name), TEAM_COLOR, size));
}

/** Serves one avatar; `rest` is the path after /avatars/. */
export function handleAvatar(ctx: RequestContext, rest: string): Response {
  const team = TEAM_PATH.exec(rest);
  if (team) return handleTeamImage(ctx, team[1] as string, team[2] as string);
  const match = PATH.exec(rest);
  if (!match) return notFound();
  const [, userId, hash, sizeText] = match as unknown as [string, string, string, string];
  const size: AvatarSize = sizeText === "original" ? "original" : (Number(sizeText) as AvatarSize);
  if (size !== "original" && !AVATAR_SIZES.includes(size)) return notFound();
  // Member ids are scrambled per workspace: the workspace that knows the id is the member's.
  const face = [...ctx.state.workspaces.values()].map((ws) => avatarFace(ws, userId)).find(Boolean);
  if (!face || face.avatarHash !== hash) return notFound();

  return svgResponse(ctx, `"${hash}-${sizeText}"`, renderAvatarSvg(face.initials, face.color, size === "original" ? ORIGINAL_SIZE : size));
}
