/**
 * A tiny router: METHOD + pattern → handler. Patterns are paths relative to the emulator's base with
 * `:name` segments and an optional trailing `*` that captures the rest (as `params["*"]`).
 */
import type { RequestContext } from "../types";

export type RouteParams = Record<string, string>;
export type RouteHandler = (ctx: RequestContext, params: RouteParams) => Promise<Response> | Response;

interface Route {
  methods: Set<string> | "*";
  segments: string[];
  handler: RouteHandler;
}

export interface RouteMatch {
  handler: RouteHandler;
  params: RouteParams;
}

function split(path: string): string[] {
  return path.split("/").filter((s) => s !== "");
}

export class Router {
  private readonly routes: Route[] = [];

  /** Registers a handler; `methods` is "*" for any HTTP method. */
  on(methods: string | string[] | "*", pattern: string, handler: RouteHandler): this {
    this.routes.push({
      methods: methods === "*" ? "*" : new Set((Array.isArray(methods) ? methods : [methods]).map((m) => m.toUpperCase())),
      segments: split(pattern),
      handler,
    });
    return this;
  }

  get(pattern: string, handler: RouteHandler): this {
    return this.on(["GET", "HEAD"], pattern, handler);
  }

  post(pattern: string, handler: RouteHandler): this {
    return this.on("POST", pattern, handler);
  }

  /**
   * The handler for a request, or { allowed } listing the methods the path accepts (for a 405),
   * or null when no route has this path.
   */
  match(method: string, path: string): RouteMatch | { allowed: string[] } | null {
    const parts = split(path);
    const allowed = new Set<string>();
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.methods === "*" || route.methods.has(method.toUpperCase())) return { handler: route.handler, params };
      for (const m of route.methods) allowed.add(m);
    }
    return allowed.size > 0 ? { allowed: [...allowed] } : null;
  }
}

function matchSegments(pattern: string[], parts: string[]): RouteParams | null {
  const params: RouteParams = {};
  for (let i = 0; i < pattern.length; i++) {
    const segment = pattern[i] as string;
    if (segment === "*") {
      params["*"] = parts.slice(i).join("/");
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    if (segment.startsWith(":")) {
      try {
        params[segment.slice(1)] = decodeURIComponent(part);
      } catch {
        return null;
      }
    } else if (segment !== part) {
      return null;
    }
  }
  return parts.length === pattern.length ? params : null;
}
