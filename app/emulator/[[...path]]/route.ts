// ALL /emulator/* - The embedded platform emulator: {origin}/emulator is a base_url in the spec's sense
import { handleEmbeddedEmulatorRequest } from "@/lib/embedded-emulator";

export const dynamic = "force-dynamic";

const handle = (request: Request) => handleEmbeddedEmulatorRequest(request);

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as HEAD, handle as OPTIONS };
