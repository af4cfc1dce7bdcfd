"use client";

import useSWRMutation from "swr/mutation";
import type { CallRequest } from "@/lib/explorer/params";
import { sendApiCall } from "./api-call";

export type { ApiCallResult } from "./api-call";

/** The request as the explorer sends it to /api/call: a GET with a query, or a POST with a body. */
export type ApiCallArg = CallRequest;

/** Send: one page (or one call) of any method with the session's token, through the console. */
export function useApiCall() {
  return useSWRMutation("/api/call", (_key: string, { arg }: { arg: ApiCallArg }) => sendApiCall(arg));
}
