"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { argumentTyping, CATALOG_PATIENCE_MS, typesForSend, type CatalogState } from "@/lib/explorer/argument-typing";
import { findMethod, isPaginated } from "@/lib/explorer/catalog";
import { defaultInstallation } from "@/lib/explorer/default-installation";
import { exportFileName, toCsv, toJsonExport } from "@/lib/explorer/export";
import type { HistoryEntry } from "@/lib/explorer/history";
import { findCollection } from "@/lib/explorer/items";
import { catalogShape } from "@/lib/explorer/method-defaults";
import { itemsThroughPage } from "@/lib/explorer/page-walk";
import { currentCursor, pageNumber, popPage, pushPage, stackForSend, START, type PageStack } from "@/lib/explorer/pagination";
import { buildCall, callQuery, fromSearchParams, isValidMethod, statedInLink, toSearchParams, type ExplorerRequest } from "@/lib/explorer/params";
import { readNextCursor } from "@/lib/platform/cursor";
import { useApiCall, type ApiCallResult } from "@/lib/swr/use-api-call";
import { useEmulatorMethods } from "@/lib/swr/use-emulator-methods";
import { useFetchAll } from "@/lib/swr/use-fetch-all";
import { useMethodCatalog } from "@/lib/swr/use-method-catalog";
import { useHistoryPage, useRefreshHistory } from "@/lib/swr/use-history";
import { downloadFile } from "@/components/download-file";
import { arrivalSettles, explorerReducer, fetchAllOf, initialExplorerState, requestAsSent, type ExplorerState } from "./explorer-state";
import { useInstallationSearch } from "@/components/installations/use-installation-search";
import { useSendKey } from "./use-send-key";

/** Methods safe to call again on reload: reads only. */
const READ_ONLY_METHOD = /\.(list|info|history|replies|members)$|^auth\.test$/;
/** How many of the newest history entries the explorer's panel shows (the History page pages through all). */
const HISTORY_PANEL_ENTRIES = 20;

/**
 * The explorer's state and what it does: the request (from the page's URL, the form, the history), the
 * calls of a walk by hand and their answers, Fetch all, and the history of both. A hook of the page's
 * component rather than browser model (lib/explorer): it wires the state's reducer (explorer-state.ts) to
 * the page's URL, the SWR hooks and the effects, so the component is left its layout.
 */
export function useExplorer() {
  const search = useSearchParams();
  const [opened] = useState(() => {
    const link = new URLSearchParams(search.toString());
    return { request: fromSearchParams(link), stated: statedInLink(link), withMethod: link.get("method") !== null };
  });
  const [state, dispatch] = useReducer(explorerReducer<ApiCallResult>, undefined, (): ExplorerState<ApiCallResult> =>
    initialExplorerState(opened.request, opened.stated),
  );
  const { request, arrival, page: pageWalk, walk, mode, tab, restored, generation } = state;
  const { stack, answer: result, sent, timings: pageTimings } = pageWalk;
  const { trigger, isMutating } = useApiCall();
  const fetchAll = useFetchAll();
  // The newest entries of this person's lasting history; the server records every call and walk itself.
  const history = useHistoryPage({}, { limit: HISTORY_PANEL_ENTRIES });
  const refreshHistory = useRefreshHistory();
  // The installations to call with, searched as the person types; until then the link's installation is
  // asked for by its id, so a link opens on it wherever it is in the list.
  const { session, typed: typedInPicker, installations, picker } = useInstallationSearch(opened.request.installation);
  const { data: catalog, error: catalogError } = useMethodCatalog();
  // A catalog that fails, or has not come after a while, no longer holds calls back: they go untyped, said so.
  const [catalogLate, setCatalogLate] = useState(false);
  useEffect(() => {
    if (catalog) return;
    const timer = setTimeout(() => setCatalogLate(true), CATALOG_PATIENCE_MS);
    return () => clearTimeout(timer);
  }, [catalog]);
  const catalogState: CatalogState = useMemo(
    () => ({ methods: catalog, unavailable: catalogError !== undefined || catalogLate }),
    [catalog, catalogError, catalogLate],
  );
  const typing = argumentTyping(catalogState, request.method);
  const { data: emulated } = useEmulatorMethods(session.data?.upstream.kind);

  const catalogMethod = catalog ? findMethod(catalog, request.method) : undefined;
  // Paginated as the catalog says, or (for a method outside it) as the emulator describes it.
  const paginated = catalogMethod ? isPaginated(catalogMethod) : (emulated?.get(request.method)?.paginated ?? false);
  const methodKnown =
    catalogMethod !== undefined ||
    ((catalog !== undefined || catalogState.unavailable) && (session.data?.upstream.kind !== "emulator" || emulated !== undefined));
  // Until the catalog has said whether the method pages, what the request holds is sent as it is.
  const sendsPagingFields = !methodKnown || paginated;

  // State that follows other state is adjusted while rendering, before anything shows the stale value.
  if (arrivalSettles(state, methodKnown)) {
    dispatch({ type: "method_known", shape: methodKnown ? (catalogMethod ? catalogShape(catalogMethod) : { paginated, transport: null }) : null });
  }
  // An installation the link names that is not among this person's (another workspace's, or forgotten): the
  // page says so and the link's call is not made; the form offers their own instead, sent only when they press Send.
  const foreignInstallation =
    opened.request.installation !== "" && !typedInPicker && session.data !== undefined && !installations.some((i) => i.id === opened.request.installation)
      ? opened.request.installation
      : null;
  // The installation named in the URL, or the first one that works.
  if (installations.length > 0 && !installations.some((i) => i.id === request.installation)) {
    dispatch({ type: "installations_listed", ids: installations.map((i) => i.id), fallback: defaultInstallation(installations.map((i) => i.view))!.id });
  }

  // After a history entry is put back, the page's URL says it, once its defaults are in.
  const urlFollowsRequest = useRef(false);
  useEffect(() => {
    if (arrival || !urlFollowsRequest.current) return;
    urlFollowsRequest.current = false;
    window.history.replaceState(null, "", `?${toSearchParams(request).toString()}`);
  }, [arrival, request]);

  const send = useCallback(
    async (base: ExplorerRequest, cursor: string, nextStack: PageStack) => {
      // Typed by the catalog entry of the method it sends (not the form's, which may have changed since).
      const types = typesForSend(argumentTyping(catalogState, base.method));
      if (!types) return;
      const sending = requestAsSent(base, cursor, sendsPagingFields);
      dispatch({ type: "sent", request: sending });
      window.history.replaceState(null, "", `?${toSearchParams(sending).toString()}`);
      const answer = await trigger(buildCall(sending, types));
      const collection = findCollection(answer.body, sending.method);
      const count = collection?.items.length;
      // Calls made before a history entry was put back: their answers go to the history, not on the page.
      dispatch({ type: "answered", generation, request: sending, stack: nextStack, answer, count, upstreamMs: answer.upstreamMs, list: collection !== null });
      // The server records the call just after it answered; its next read of the history waits for that write
      // on the same instance (historyWritesSettled), so the panel shows the call.
      void refreshHistory();
    },
    [trigger, refreshHistory, catalogState, sendsPagingFields, generation],
  );

  // Send waits for the catalog to type the arguments (the button says so), whichever way it is pressed.
  const canSend = isValidMethod(request.method) && request.installation !== "" && !isMutating && typing.status !== "waiting";
  const sendForm = useCallback(() => {
    if (!canSend) return;
    const from = stackForSend(stack, sent, request);
    if (!from.continues) dispatch({ type: "walk_restarted" });
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
    dispatch({ type: "walk_restarted" });
    void send(sent ?? request, "", START);
  };

  const startFetchAll = () => {
    const first = fetchAllOf(state);
    dispatch({ type: "fetch_all_started" });
    window.history.replaceState(null, "", `?${toSearchParams(request).toString()}`);
    fetchAll.start(request.method, callQuery(first.request, { max_pages: String(first.maxPages) }));
  };

  useSendKey(sendForm);

  // A shared or reloaded view of a read-only method shows its first page again.
  const autoSent = useRef(false);
  useEffect(() => {
    if (autoSent.current || !opened.withMethod || !methodKnown || arrival || request.installation === "" || !READ_ONLY_METHOD.test(request.method)) return;
    if (foreignInstallation) return;
    if (!installations.some((i) => i.id === request.installation)) return;
    autoSent.current = true;
    // Sending is what this effect is for: the link's call, made once what it needs is known. The state it
    // sets on the way (the request as sent, the walk's mode) is the call's, as when Send is pressed.
    sendForm();
  }, [installations, request, sendForm, methodKnown, arrival, opened.withMethod, foreignInstallation]);

  const all = fetchAll.state;
  const showAll = mode === "all" && all !== null;

  // A Fetch all is in the history once it ends (the server records it before its last line): the panel reads it again.
  const endedWalk = useRef<number | null>(null);
  useEffect(() => {
    if (!all || all.status === "running" || all.status === "waiting" || endedWalk.current === all.runId) return;
    endedWalk.current = all.runId;
    void refreshHistory();
  }, [all, all?.status, refreshHistory]);
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
    if (walking) fetchAll.cancel();
    dispatch({ type: "restored", entry });
    urlFollowsRequest.current = true;
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
      // None at all (not none matching a search).
      noInstallation: session.data !== undefined && session.data.page.total === 0,
      foreignInstallation,
    },
    form: {
      request,
      setRequest: (next: ExplorerRequest) => dispatch({ type: "edited", request: next }),
      installations,
      picker,
      catalog,
      catalogMethod,
      emulated,
      paginated,
      chooseMethod: (method: string) => dispatch({ type: "method_chosen", method }),
      send: sendForm,
      startFetchAll,
      maxPages: state.maxPages,
      setMaxPages: (value: string) => dispatch({ type: "max_pages_typed", value }),
      busy: isMutating,
      typing,
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
    view: {
      mode,
      setMode: (next: ExplorerState<ApiCallResult>["mode"]) => dispatch({ type: "mode_chosen", mode: next }),
      showAll,
      tab,
      setTab: (next: ExplorerState<ApiCallResult>["tab"]) => dispatch({ type: "tab_chosen", tab: next }),
    },
    history: { entries: history.data?.entries ?? [], error: history.error, loading: history.isLoading, restored, restore: restoreFromHistory },
  };
}
