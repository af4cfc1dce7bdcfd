import { WebApiError } from "../../core/errors";
import type { MethodDefinition } from "../../types";
import { TEAM_IMAGE_SIZES, teamImageUrl } from "../../workspace/avatars";
import type { Workspace } from "../../workspace/workspace";

/**
 * The workspace as team.info describes it. Its domain is the one the workspace record holds (the
 * `<domain>.slack.com` of its URL), and its members' addresses are at `<domain>.example.com`.
 */
export function teamRecord(ws: Workspace, baseUrl: string): Record<string, unknown> {
  const icon: Record<string, unknown> = {};
  for (const size of TEAM_IMAGE_SIZES) icon[`image_${size}`] = teamImageUrl(baseUrl, ws.team.id, size);
  icon.image_default = true;
  return {
    id: ws.team.id,
    name: ws.team.name,
    url: `https://${ws.team.domain}.slack.com/`,
    domain: ws.team.domain,
    email_domain: `${ws.team.domain}.example.com`,
    icon,
    avatar_base_url: `${baseUrl}/avatars/`,
    is_verified: false,
  };
}

export const teamMethods: MethodDefinition[] = [
  {
    name: "team.info",
    tier: 3,
    auth: "token",
    scopes: { bot: ["team:read"], user: ["team:read"] },
    handler({ params, ws, baseUrl }) {
      // A token sees its own workspace (other teams only through shared channels, which the emulator has none of).
      if (params.team && params.team !== ws.team.id) throw new WebApiError("team_not_found");
      return { team: teamRecord(ws, baseUrl) };
    },
  },
];
