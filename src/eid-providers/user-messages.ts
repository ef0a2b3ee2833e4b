import type { Language } from '../common/languages/languages.js';

/**
 * What a person is told about a session, in the words of its provider (docs/providers.md): each
 * provider brings a table, and poll answers, the kiosk stream and `<eid-qr>` all read the same one,
 * so every screen says the same. The poll answer carries Swedish and English; the pages speak all five.
 */
export interface UserMessage {
  code: string;
  sv: string;
  en: string;
}

/** One message as a whole sentence in each language the pages speak (docs/providers.md, "Languages"). */
export type MessageTexts = Readonly<Record<Language, string>>;

/** How the person reaches the order: a QR on another screen, the app opened on this device, or a phone call. */
export type LaunchContext = 'qr' | 'autostart' | 'phone';

export interface UserMessageContext {
  launch: LaunchContext;
  /** The person's screen is a phone or tablet (a provider may say "this device" instead of "this computer"). */
  mobile?: boolean;
}

export type MessagePick<K extends string> = (context: UserMessageContext) => K;

/** A provider's messages: texts by key, and the key for each pending and failed hint code it knows. */
export interface UserMessageTable<K extends string = string> {
  /** The e-ID app's name, for the "Open …" button and the kiosk's heading. */
  readonly appName: string;
  readonly texts: Readonly<Record<K, MessageTexts>>;
  readonly pending: Readonly<Record<string, MessagePick<K>>>;
  readonly failed: Readonly<Record<string, MessagePick<K>>>;
  /** For any other hint code. */
  readonly fallback: { pending: K; failed: K };
  /** Keys that are a variant of another message report that message's code. */
  readonly codes?: Readonly<Partial<Record<K, string>>>;
}

/**
 * The message for a pending or failed state; none for complete (the RP says what happens next).
 * Unknown or new hint codes get the table's generic ones.
 */
export function userMessageFor(
  table: UserMessageTable,
  status: string,
  hintCode: string | null | undefined,
  context: UserMessageContext,
): UserMessage | undefined {
  if (status !== 'pending' && status !== 'failed') return undefined;
  const key = messageKey(table, status, hintCode, context);
  const { sv, en } = table.texts[key];
  return { code: table.codes?.[key] ?? key, sv, en };
}

function messageKey(
  table: UserMessageTable,
  status: 'pending' | 'failed',
  hintCode: string | null | undefined,
  context: UserMessageContext,
) {
  const picks = table[status];
  const pick = hintCode && Object.hasOwn(picks, hintCode) ? picks[hintCode] : undefined;
  return pick ? pick(context) : table.fallback[status];
}

/** A table as the browser reads it (`<eid-qr>` picks as a poll answer would). */
export interface BrowserMessageTable {
  appName: string;
  texts: Record<string, MessageTexts>;
  /** The key for every `status|hintCode|launch|mobile` the table knows; an empty hint code stands for any other. */
  picks: Record<string, string>;
}

export function browserMessageTable(table: UserMessageTable): BrowserMessageTable {
  const picks: Record<string, string> = {};
  for (const status of ['pending', 'failed'] as const) {
    for (const launch of ['qr', 'autostart'] as const) {
      for (const mobile of [false, true]) {
        const context = `${launch}|${mobile ? 1 : 0}`;
        picks[`${status}||${context}`] = table.fallback[status];
        for (const hintCode of Object.keys(table[status])) {
          picks[`${status}|${hintCode}|${context}`] = messageKey(table, status, hintCode, { launch, mobile });
        }
      }
    }
  }
  return { appName: table.appName, texts: { ...table.texts }, picks };
}
