/**
 * Saves text the page already holds as a file (an export, a manifest): no route to navigate to. The object
 * URL is let go once the browser has had time to start the download.
 */
export function downloadFile(fileName: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
