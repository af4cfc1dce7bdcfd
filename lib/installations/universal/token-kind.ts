/** The two access tokens an installation can hold: its bot's, and the installing user's. */
export const TOKEN_KINDS = ["bot", "user"] as const;

export type TokenKind = (typeof TOKEN_KINDS)[number];
