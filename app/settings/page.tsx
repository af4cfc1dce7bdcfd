import type { Metadata } from "next";
import { AppSettingsConsole } from "@/components/settings/app-settings-console";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "App settings" };

const APP_ID = /^A[0-9A-Z]{2,31}$/;

export default async function SettingsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const app = (await searchParams).app;
  return <AppSettingsConsole initialAppId={typeof app === "string" && APP_ID.test(app) ? app : null} />;
}
