"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useEffectEvent, useMemo, useReducer, useRef, useState } from "react";
import { countOfList, summarizeAnswer } from "@/lib/explorer/answer-summary";
import { findMethod, isPaginated } from "@/lib/explorer/catalog";
import { defaultInstallation } from "@/lib/explorer/default-installation";
import { exportFileName, toCsv, toJsonExport } from "@/lib/explorer/export";
import { DEFAULT_MAX_PAGES } from "@/lib/explorer/fetch-all-events";
import { requestFromHistory, type HistoryEntry } from "@/lib/explorer/history";
import { findCollection } from "@/lib/explorer/items";
import { catalogShape, NOTHING_STATED, withMethodDefaults } from "@/lib/explorer/method-defaults";
import { initialPageWalk, itemsThroughPage, pageWalkReducer } from "@/lib/explorer/page-walk";
import { currentCursor, pageNumber, popPage, pushPage, stackForSend, START, type PageStack } from "@/lib/explorer/pagination";
import {
  buildCall,
  callQuery,
  fromSearchParams,
  isValidMethod,
  requestParams,
  statedInLink,
  toSearchParams,
  type ExplorerRequest,
  type StatedFields,
} from "@/lib/explorer/params";
import { MAX_PAGE_SIZE } from "@/lib/installations/universal/list-query";
import { readNextCursor } from "@/lib/platform/cursor";
import { useApiCall, type ApiCallResult } from "@/lib/swr/use-api-call";
import { useEmulatorMethods } from "@/lib/swr/use-emulator-methods";
import { useFetchAll } from "@/lib/swr/use-fetch-all";
import { useMethodCatalog } from "@/lib/swr/use-method-catalog";
import { useRequestHistory } from "@/lib/swr/use-request-history";
import { useSession } from "@/lib/swr/use-session";
import { downloadFile } from "@/components/download-file";
import type { InstallationOption } from "./request-form";

/** Methods safe to call again on reload: reads only. */
const READ_ONLY_METHOD = /\.(list|info|history|replies|members)$|^auth\.test$/;

/**
 * The explorer's state and what it does: the request (from the page's URL, the form, the history), the
 * calls of a walk by hand and their answers, Fetch all, and the history of both. A hook of the page's
 * component rather than browser model (lib/explorer): it is React state and effects over the model's pure
 * functions, the page's URL and the SWR hooks, so the component is left its layout.
 */
export function useExplorer() {
  const search = useSearchParams();
  const [opened] = useState(() => {
    const link = new URLSearchParams(search.toString());
    return { request: fromSearchParams(link), stated: statedInLink(link), withMethod: link.get("method") !== null };
  });
  const [request, setRequest] = useState<ExplorerRequest>(opened.request);
  // A method that came from the link, the history or a suggestion, until its catalog entry has filled what
  // they did not state (its verb, its paging): see method-defaults.ts.
  const [arrival, setArrival] = useState<{ method: string; stated: StatedFields } | null>({ method: opened.request.method, stated: opened.stated });
  const [maxPages, setMaxPages] = useState(String(DEFAULT_MAX_PAGES));
  const [pageWalk, dispatchWalk] = useReducer(pageWalkReducer<ApiCallResult>, undefined, initialPageWalk<ApiCallResult>);
  const { stack, answer: result, sent, timings: pageTimings } = pageWalk;
  // The request and page cap of the last Fetch all, as they were when it started.
  const [walk, setWalk] = useState<{ request: ExplorerRequest; maxPages: number } | null>(null);
  const [mode, setMode] = useState<"page" | "all">("page");
  const [tab, setTab] = useState<"table" | "json">("table");
  const { trigger, isMutating } = useApiCall();
  const fetchAll = useFetchAll();
  const history = useRequestHistory();
  // The installations to call with: the most one page of the list holds (the dashboard pages through the rest).
  const session = useSession({ limit: MAX_PAGE_SIZE });
  const { data: catalog } = useMethodCatalog();
  const { data: emulated } = useEmulatorMethods(session.data?.upstream.kind);
  // A history entry put back in the form: its answer's summary is shown until the next call.
  const [restored, setRestored] = useState<HistoryEntry | null>(null);

  const installations: InstallationOption[] = useMemo(
    () =>
      (session.data?.installations ?? []).map((i) => ({
        id: i.id,
        label: `${i.name} (${i.team.id})${i.state === "needs_reinstall" ? " · needs reinstall" : ""}`,
        view: i,
      })),
    [session.data],
  );

  const catalogMethod = catalog ? findMethod(catalog, request.method) : undefined;
  // Paginated as the catalog says, or (for a method outside it) as the emulator describes it.
  const paginated = catalogMethod ? isPaginated(catalogMethod) : (emulated?.get(request.method)?.paginated ?? false);
  const methodKnown = catalogMethod !== undefined || (catalog !== undefined && (session.data?.upstream.kind !== "emulator" || emulated !== undefined));
  const argTypes = useMemo(() => new Map((catalogMethod?.args ?? []).map((a) => [a.name, a.type] as const)), [catalogMethod]);
  // Until the catalog has said whether the method pages, what the request holds is sent as it is.
  const sendsPagingFields = !methodKnown || paginated;

  // State that follows other state is adjusted while rendering, before anything shows the stale value.
  if (arrival && arrival.method !== request.method) {
    // Another method was chosen meanwhile: it brought its own defaults.
    setArrival(null);
  } else if (arrival && methodKnown) {
    const shape = catalogMethod ? catalogShape(catalogMethod) : { paginated, transport: null };
    setRequest((r) => (r.method === arrival.method ? withMethodDefaults(r, shape, arrival.stated) : r));
    setArrival(null);
  }
  // An installation the link names that is not among this person's (another workspace's, or forgotten): the
  // page says so and the link's call is not made; the form offers their own instead, sent only when they press Send.
  const foreignInstallation =
    opened.request.installation !== "" && session.data !== undefined && !installations.some((i) => i.id === opened.request.installation)
      ? opened.request.installation
      : null;
  // The installation named in the URL, or the first one that works.
  if (installations.length > 0 && !installations.some((i) => i.id === request.installation)) {
    const fallback = defaultInstallation(installations.map((i) => i.view))!.id;
    setRequest((r) => (installations.some((i) => i.id === r.installation) ? r : { ...r, installation: fallback }));
  }

  // After a history entry is put back, the page's URL says it, once its defaults are in.
  const urlFollowsRequest = useRef(false);
  useEffect(() => {
    if (arrival || !urlFollowsRequest.current) return;
    urlFollowsRequest.current = false;
    window.history.replaceState(null, "", `?${toSearchParams(request).toString()}`);
  }, [arrival, request]);

  // Calls made before a history entry was put back: their answers go to the history, not on the page.
  const generation = useRef(0);
  const send = useCallback(
    async (base: ExplorerRequest, cursor: string, nextStack: PageStack) => {
      const sentIn = generation.current;
      const sending = { ...base, cursor };
      if (!sendsPagingFields) {
        // The hidden cursor and limit fields of a method that does not page are not sent.
        sending.cursor = "";
        sending.limit = "";
      }
      setRequest(sending);
      setMode("page");
      window.history.replaceState(null, "", `?${toSearchParams(sending).toString()}`);
      const answer = await trigger(buildCall(sending, argTypes));
      const collection = findCollection(answer.body, sending.method);
      const count = collection?.items.length;
      const body = answer.body as { ok?: unknown; error?: unknown };
      if (sentIn === generation.current) {
        dispatchWalk({ type: "answered", request: sending, stack: nextStack, answer, count, upstreamMs: answer.upstreamMs });
        setRestored(null);
        // A list opens on its table; anything else (auth.test, chat.postMessage, an error) on its JSON.
        setTab(collection ? "table" : "json");
      }
      history.add({
        id: `${answer.at}-${Math.random().toString(36).slice(2, 8)}`,
        at: answer.at,
        method: sending.method,
        installation: sending.installation,
        tokenKind: sending.tokenKind,
        httpMethod: sending.httpMethod,
        encoding: sending.encoding,
        params: requestParams(sending),
        kind: "call",
        status: answer.status,
        ok: body?.ok === true,
        ...(typeof body?.error === "string" ? { error: body.error } : {}),
        ms: answer.upstreamMs ?? answer.roundTripMs,
        ...(count !== undefined ? { count } : {}),
        summary: summarizeAnswer(answer.status, answer.body, answer.retryAfterS),
      });
    },
    [trigger, history, argTypes, sendsPagingFields],
  );

  const canSend = isValidMethod(request.method) && request.installation !== "" && !isMutating;
  const sendForm = useCallback(() => {
    if (!canSend) return;
    const from = stackForSend(stack, sent, request);
    if (!from.continues) dispatchWalk({ type: "restart" });
    void send(request, request.cursor, from.stack);
  }, [canSend, request, send, sent, stack]);

  const nextCursor = result ? readNextCursor(result.body) : null;
  const onNext = () => sent && nextCursor && void send(sent, nextCursor, pushPage(stack, nextCursor));
  const onPrevious = () => {
    if (!sent) return;
    const back = popPage(stack);
    void send(sent, currentCursor(back), back);
  };
  const onRetry = () => sent && void send(sent, sent.cursor, stack);
  const onStartOver = () => {
    dispatchWalk({ type: "restart" });
    void send(sent ?? request, "", START);
  };

  const startFetchAll = () => {
    setRestored(null);
    setMode("all");
    setTab("table");
    window.history.replaceState(null, "", `?${toSearchParams(request).toString()}`);
    // A walk of everything starts at the first page, wherever the walk by hand has got to.
    const first = { ...request, cursor: "" };
    const cap = Number(maxPages) || DEFAULT_MAX_PAGES;
    setWalk({ request: first, maxPages: cap });
    fetchAll.start(request.method, callQuery(first, { max_pages: String(cap) }));
  };

  // Ctrl/Cmd+Enter sends from anywhere on the page.
  const onShortcut = useEffectEvent(() => sendForm());
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        onShortcut();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // A shared or reloaded view of a read-only method shows its first page again.
  const autoSent = useRef(false);
  useEffect(() => {
    if (autoSent.current || !opened.withMethod || !methodKnown || arrival || request.installation === "" || !READ_ONLY_METHOD.test(request.method)) return;
    if (foreignInstallation) return;
    if (!installations.some((i) => i.id === request.installation)) return;
    autoSent.current = true;
    // Sending is what this effect is for: the link's call, made once what it needs is known. The state it
    // sets on the way (the request as sent, the walk's mode) is the call's, as when Send is pressed.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    sendForm();
  }, [installations, request, sendForm, methodKnown, arrival, opened.withMethod, foreignInstallation]);

  const all = fetchAll.state;
  const showAll = mode === "all" && all !== null;

  // A Fetch all goes into the history once it ends (done, cancelled or failed), as a walk of its own.
  const recordedWalk = useRef<number | null>(null);
  useEffect(() => {
    if (!all || !walk || all.status === "running" || all.status === "waiting" || recordedWalk.current === all.runId) return;
    recordedWalk.current = all.runId;
    history.add({
      id: `all-${all.runId}-${all.startedAt}`,
      at: all.startedAt,
      method: all.method,
      installation: walk.request.installation,
      tokenKind: walk.request.tokenKind,
      httpMethod: "GET",
      params: { ...requestParams(walk.request), max_pages: String(walk.maxPages) },
      kind: "all",
      status: all.status === "error" ? 0 : 200,
      ok: all.status !== "error",
      ...(all.error ? { error: all.error } : {}),
      ms: (all.endedAt ?? Date.now()) - all.startedAt,
      count: all.count,
      pages: all.pages,
      summary: `Fetch all ${all.status}${all.capped ? " at the page cap" : ""} · ${countOfList(all.count, all.field)} in ${all.pages} ${all.pages === 1 ? "page" : "pages"}`,
    });
  }, [all, all?.status, walk, history]);
  const pageBody = result?.body as { ok?: unknown; error?: unknown; message?: unknown } | undefined;
  const pageError = pageBody && pageBody.ok !== true ? (typeof pageBody.error === "string" ? pageBody.error : `http_${result?.status}`) : null;
  const pageCollection = useMemo(() => (result ? findCollection(result.body, result.method) : null), [result]);

  const onDownload = (format: "json" | "csv") => {
    if (!all) return;
    if (format === "json") downloadFile(exportFileName(all.method, "json"), "application/json", toJsonExport(all.method, all.field, all.items, all.pages));
    else downloadFile(exportFileName(all.method, "csv"), "text/csv", toCsv(all.kind, all.items));
  };

  const walking = all?.status === "running" || all?.status === "waiting";

  // A call put back from the history replaces what the page showed: no answer, wire record or snippet of
  // another call stays beside it, and nothing is sent until Send (a walk still running is cancelled).
  const restoreFromHistory = (entry: HistoryEntry) => {
    const { request: next, stated, maxPages: cap } = requestFromHistory(entry);
    generation.current += 1;
    if (walking) fetchAll.cancel();
    dispatchWalk({ type: "cleared" });
    setMode("page");
    if (cap) setMaxPages(cap);
    setRequest(next);
    setArrival({ method: next.method, stated });
    urlFollowsRequest.current = true;
    setRestored(entry);
  };

  // A method named in an answer's note: chosen as if picked in the form, its catalog entry filling its defaults.
  const chooseMethod = (name: string) => {
    setRequest((r) => ({ ...r, method: name, cursor: "" }));
    setArrival({ method: name, stated: NOTHING_STATED });
  };

  const sentInstallation = session.data?.installations.find((i) => i.id === sent?.installation);
  const sentCatalogMethod = catalog && sent ? findMethod(catalog, sent.method) : undefined;
  // The walk by hand is for paginated methods; any other answer gets a line of status instead.
  const sentPaginated = sent
    ? sentCatalogMethod
      ? isPaginated(sentCatalogMethod)
      : (emulated?.get(sent.method)?.paginated ?? pageCollection !== null)
    : paginated;

  return {
    session: {
      error: session.error,
      upstream: session.data?.upstream.kind,
      noInstallation: session.data !== undefined && installations.length === 0,
      foreignInstallation,
    },
    form: {
      request,
      setRequest,
      installations,
      catalog,
      catalogMethod,
      emulated,
      paginated,
      chooseMethod,
      send: sendForm,
      startFetchAll,
      maxPages,
      setMaxPages,
      busy: isMutating,
      walking,
    },
    /** The walk by hand: the last answer, the request it answered, and its pages so far. */
    page: {
      result,
      sent,
      sentCatalogMethod,
      sentInstallation,
      sentPaginated,
      number: pageNumber(stack),
      sentCursor: currentCursor(stack),
      nextCursor,
      collection: pageCollection,
      total: itemsThroughPage(pageWalk),
      error: pageError,
      errorMessage: pageError && typeof pageBody?.message === "string" ? pageBody.message : null,
      timings: pageTimings,
      onNext,
      onPrevious,
      onRetry,
      onStartOver,
    },
    /** Fetch all: its progress (null before the first), and the request and cap it started with. */
    all: { state: all, feed: fetchAll.feed, walk, cancel: fetchAll.cancel, onDownload },
    view: { mode, setMode, showAll, tab, setTab },
    history: { entries: history.entries, clear: history.clear, restored, restore: restoreFromHistory },
  };
}
