import { installations } from "./schema";
import type { InstallationSummary } from "./types";

/**
 * An installation's summary as the store reads it from its row: the columns selected (the whole list,
 * installations.ts, and the dashboard's pages, installation-lists.ts, select the same) and the summary
 * made of them, without its tokens (each reader joins or reads those its own way).
 */

type InstallationRow = typeof installations.$inferSelect;

/** The installation's columns a summary is made of, for a select. */
export const SUMMARY_COLUMNS = {
  id: installations.id,
  appKey: installations.appKey,
  appId: installations.appId,
  appName: installations.appName,
  teamId: installations.teamId,
  teamName: installations.teamName,
  enterpriseId: installations.enterpriseId,
  enterpriseName: installations.enterpriseName,
  isEnterpriseInstall: installations.isEnterpriseInstall,
  state: installations.state,
  authedUserId: installations.authedUserId,
  installedBy: installations.installedBy,
  installedAt: installations.installedAt,
};

/** Who the installation is: its app and workspace (and enterprise), the fields a record and a summary share. */
export function namesOf(
  row: Pick<InstallationRow, "id" | "appKey" | "appId" | "appName" | "teamId" | "teamName" | "enterpriseId" | "enterpriseName" | "isEnterpriseInstall">,
) {
  return {
    id: row.id,
    appKey: row.appKey,
    ...(row.appId !== null ? { appId: row.appId } : {}),
    ...(row.appName !== null ? { appName: row.appName } : {}),
    team: { id: row.teamId, name: row.teamName },
    ...(row.enterpriseId !== null ? { enterprise: { id: row.enterpriseId, name: row.enterpriseName ?? "" } } : {}),
    ...(row.isEnterpriseInstall ? { isEnterpriseInstall: true } : {}),
  };
}

/** A row of SUMMARY_COLUMNS as a summary, its tokens still to add. */
export function summaryOf(row: Pick<InstallationRow, keyof typeof SUMMARY_COLUMNS>): InstallationSummary {
  return {
    ...namesOf(row),
    state: row.state as InstallationSummary["state"],
    ...(row.authedUserId !== null ? { authedUserId: row.authedUserId } : {}),
    ...(row.installedBy !== null ? { installedBy: row.installedBy } : {}),
    installedAt: row.installedAt,
    tokens: [],
  };
}
