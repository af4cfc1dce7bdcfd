import { Badge, Panel } from "@/components/ui/primitives";
import { PlatformText } from "@/components/platform-text";
import type { AppSettingsView } from "@/lib/app-config/universal/types";

/** The app's identity and credentials, as the platform's Basic Information page shows them: secrets masked. */
export function BasicInformation({ settings }: { settings: AppSettingsView }) {
  const { credentials } = settings;
  return (
    <Panel title="Basic information">
      <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
        <dt className="text-slate-500">App name</dt>
        <dd className="font-medium text-slate-900">
          <PlatformText>{settings.name}</PlatformText>
        </dd>
        <dt className="text-slate-500">App ID</dt>
        <dd className="font-mono text-xs text-slate-900">{settings.appId}</dd>
        {credentials ? (
          <>
            <dt className="text-slate-500">Client ID</dt>
            <dd className="break-all font-mono text-xs text-slate-900" data-testid="client-id">
              {credentials.clientId}
            </dd>
            <dt className="text-slate-500">Client secret</dt>
            <dd className="flex flex-wrap items-center gap-2 font-mono text-xs text-slate-900" data-testid="client-secret">
              {credentials.clientSecret} <Badge tone="neutral">masked</Badge>
            </dd>
            <dt className="text-slate-500">Signing secret</dt>
            <dd className="flex flex-wrap items-center gap-2 font-mono text-xs text-slate-900" data-testid="signing-secret">
              {credentials.signingSecret} <Badge tone="neutral">masked</Badge>
            </dd>
          </>
        ) : (
          <>
            <dt className="text-slate-500">Credentials</dt>
            <dd className="text-slate-600">The App Manifest API does not return them: see the app&apos;s Basic Information page.</dd>
          </>
        )}
      </dl>
      {credentials && (
        <p className="mt-3 text-xs text-slate-500">
          {credentials.source === "emulator-admin"
            ? "From the emulator's admin surface. Secrets never reach the browser: only their last 4 characters."
            : "This console's own configuration for this app (CLIENT_ID, CLIENT_SECRET, SIGNING_SECRET): the App Manifest API does not return credentials. Secrets never reach the browser: only their last 4 characters."}
        </p>
      )}
    </Panel>
  );
}
