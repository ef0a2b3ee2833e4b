// XML text and attribute escaping for the documents we write; the values come from our registry and
// the e-ID, but a name can hold any character.
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export const xmlEscape = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
