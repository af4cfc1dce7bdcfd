/**
 * A workspace's user groups (the platform calls them subteams, ids `S…`): the state behind usergroups.*
 * (web-api/methods/usergroups.ts). A leaf module, so workspace.ts can hold its state.
 */

export interface Usergroup {
  id: string;
  teamId: string;
  name: string;
  handle: string;
  description: string;
  /** Default channels (prefs.channels). */
  channels: string[];
  users: string[];
  createdBy: string;
  updatedBy: string;
  /** Seconds. */
  dateCreate: number;
  dateUpdate: number;
  /** 0 while enabled; when it was disabled, in seconds, after. */
  dateDelete: number;
  deletedBy: string | null;
}
