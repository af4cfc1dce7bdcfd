// ALL /emulator/* - The embedded platform emulator: {origin}/emulator is a base_url in the spec's sense
import { emulatorAdminRefusal } from "@/lib/access/emulator-admin-gate";
import { handleEmbeddedEmulatorRequest } from "@/lib/embedded-emulator";

export const dynamic = "force-dynamic";

// With sign-in on, its admin surface is an admin's: the console's session is checked before the emulator sees the request.
const handle = async (request: Request) => (await emulatorAdminRefusal(request)) ?? handleEmbeddedEmulatorRequest(request);

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as HEAD, handle as OPTIONS };
