/**
 * What a Web API method's name may be: letters, digits and dots (users.list, oauth.v2.access). The console
 * puts it in a URL path, so nothing else gets through. Free of server imports: the explorer checks names in
 * the browser with the same rule.
 */
export const METHOD_NAME = /^[A-Za-z0-9.]+$/;

export function isValidMethodName(name: string): boolean {
  return METHOD_NAME.test(name);
}
