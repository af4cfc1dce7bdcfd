/**
 * A workspace's files: uploads under way (files.getUploadURLExternal gave a URL, the bytes may have
 * arrived there) and the files they became (files.completeUploadExternal), with the platform's file object.
 * The state behind web-api/methods/files.ts and the upload and download routes (workspace/file-routes.ts).
 * A leaf module: it imports nothing of the emulator, so workspace.ts can hold its state.
 */
import { randomBytes } from "node:crypto";

/** An upload between files.getUploadURLExternal and files.completeUploadExternal. */
export interface PendingUpload {
  fileId: string;
  /** The secret last segment of the upload URL. */
  ticket: string;
  appId: string;
  /** Who uploads: the bot user (bot token) or the member (user token). */
  userId: string;
  filename: string;
  /** The length the app declared: the upload URL takes no more. */
  length: number;
  altTxt?: string;
  snippetType?: string;
  createdAt: number;
  /** The bytes POSTed to the upload URL, once they have arrived. */
  bytes?: Uint8Array;
}

export interface StoredFile {
  id: string;
  appId: string;
  userId: string;
  /** The bot's id when a bot token uploaded it. */
  botId?: string;
  name: string;
  title: string;
  mimetype: string;
  filetype: string;
  prettyType: string;
  altTxt?: string;
  created: number;
  bytes: Uint8Array;
  /** Secret part of the download URL. */
  secret: string;
  /** Where it was shared: channel id → the share messages' ts. */
  shares: Map<string, string[]>;
  deleted: boolean;
}

export interface FilesState {
  /** By file id. */
  pending: Map<string, PendingUpload>;
  /** Upload URL ticket → file id. */
  tickets: Map<string, string>;
  /** Completed files by id, deleted ones kept (files.info answers file_deleted). */
  files: Map<string, StoredFile>;
}

export function createFilesState(): FilesState {
  return { pending: new Map(), tickets: new Map(), files: new Map() };
}

export function uploadTicket(): string {
  return randomBytes(24).toString("base64url");
}

/** Type by extension: [mimetype, filetype, pretty_type], as the platform names them. */
const TYPES: Record<string, [string, string, string]> = {
  txt: ["text/plain", "text", "Plain Text"],
  md: ["text/plain", "markdown", "Markdown (raw)"],
  csv: ["text/csv", "csv", "CSV"],
  json: ["application/json", "json", "JSON"],
  html: ["text/html", "html", "HTML"],
  js: ["text/javascript", "javascript", "JavaScript"],
  ts: ["text/plain", "typescript", "TypeScript"],
  py: ["text/x-python", "python", "Python"],
  png: ["image/png", "png", "PNG"],
  jpg: ["image/jpeg", "jpg", "JPEG"],
  jpeg: ["image/jpeg", "jpg", "JPEG"],
  gif: ["image/gif", "gif", "GIF"],
  svg: ["image/svg+xml", "svg", "SVG"],
  pdf: ["application/pdf", "pdf", "PDF"],
  zip: ["application/zip", "zip", "Zip"],
};

export function fileTypeOf(filename: string, snippetType?: string): { mimetype: string; filetype: string; prettyType: string } {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase() ?? "";
  const [mimetype, filetype, prettyType] = TYPES[ext] ?? ["application/octet-stream", "binary", "Binary"];
  if (snippetType) return { mimetype: "text/plain", filetype: snippetType, prettyType: snippetType };
  return { mimetype, filetype, prettyType };
}

/** Which kind of files.list `types` a file is: images, pdfs, zips, snippets (text) or none of them. */
export function fileKind(file: StoredFile): "images" | "pdfs" | "zips" | "snippets" | "other" {
  if (file.mimetype.startsWith("image/")) return "images";
  if (file.filetype === "pdf") return "pdfs";
  if (file.filetype === "zip") return "zips";
  if (file.mimetype.startsWith("text/") || file.mimetype === "application/json") return "snippets";
  return "other";
}
