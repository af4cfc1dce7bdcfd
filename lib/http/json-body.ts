import type { z } from "zod";
import { AppError } from "./app-error";

/** Parses a JSON request body with a zod schema: 400 when it is not JSON, 422 (via ZodError) when it does not fit. */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  let data: unknown;
  try {
    data = await request.json();
  } catch {
    throw new AppError("invalid_json");
  }
  return schema.parse(data);
}
