import { z } from "zod";
import { LIMITS, NameSchema, RequestFieldsSchema } from "./universal/model";

/** The bodies and path parameters of /api/collections…, parsed by the routes (422 invalid_request when one does not fit). */

const Id = z.string().min(1).max(64);
export const CollectionParams = z.object({ id: Id });
export const RequestParams = z.object({ id: Id, requestId: Id });
export const LinkParams = z.object({ link: z.string().min(16).max(64) });

export const CreateCollectionBody = z.object({ name: NameSchema });
export const PatchCollectionBody = z
  .object({ name: NameSchema.optional(), sharedWithTeam: z.boolean().optional() })
  .strict()
  .refine((patch) => patch.name !== undefined || patch.sharedWithTeam !== undefined, "name or sharedWithTeam is needed");

export const AddRequestBody = RequestFieldsSchema;
/** A saved request's edit: any of its fields, checked as a whole request once merged (the route does). */
export const PatchRequestBody = z
  .object({
    name: z.unknown().optional(),
    method: z.unknown().optional(),
    httpMethod: z.unknown().optional(),
    encoding: z.unknown().optional(),
    tokenKind: z.unknown().optional(),
    args: z.unknown().optional(),
    bindings: z.unknown().optional(),
  })
  .strict();

export const OrderBody = z.object({ ids: z.array(Id).max(LIMITS.requestsPerCollection) });

export const ImportBody = z.object({
  text: z.string().min(1, "the file is empty").max(LIMITS.fileBytes, `a collection file is at most ${LIMITS.fileBytes} characters`),
  name: NameSchema.optional(),
});
