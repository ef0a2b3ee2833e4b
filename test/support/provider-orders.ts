// The provider order books an age-only session leaves behind (docs/age-verification.md, "What is kept"),
// read as an attacker with the data key would: every encrypted column decrypted with the AAD its store binds.
import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DataCipher } from '../../src/common/crypto/data-cipher.js';
import * as eudi from '../../src/eid-providers/eudi/eudi-order-encryption.js';
import * as simulator from '../../src/eid-providers/simulator/simulator-order-encryption.js';
import * as upstream from '../../src/eid-providers/upstream-oidc/upstream-order-encryption.js';
import { decodedTokensIn } from './log-capture.js';

type Aad = (orderRef: string) => string;

/** Each order table's encrypted columns; a column missing here fails the read, so a new one cannot go unchecked. */
const ENCRYPTED_COLUMNS: Readonly<Record<string, Readonly<Record<string, Aad>>>> = {
  simulator_orders: {
    qr_start_secret_enc: simulator.secretAad,
    user_visible_data_enc: simulator.textAad,
    transaction_enc: simulator.transactionAad,
    user_enc: simulator.userAad,
    signed_texts_enc: simulator.textsAad,
    evidence_enc: simulator.evidenceAad,
  },
  upstream_oidc_orders: {
    secrets_enc: upstream.secretsAad,
    return_url_enc: upstream.returnUrlAad,
    completion_enc: upstream.completionAad,
  },
  eudi_orders: {
    secrets_enc: eudi.secretsAad,
    return_url_enc: eudi.returnUrlAad,
    completion_enc: eudi.completionAad,
  },
};

/**
 * Everything the order rows of the age-only sessions hold, in plain text: the rows as text and each
 * encrypted column decrypted, with the JWTs and base64 runs in them (a signature's XML) decoded.
 */
export async function ageSessionOrdersRevealed(app: INestApplicationContext): Promise<string> {
  const database = app.get(DataSource);
  const cipher = app.get(DataCipher);
  const sessions: { order_ref: string }[] = await database.query(`SELECT order_ref FROM sessions WHERE age_over IS NOT NULL`);
  const orderRefs = sessions.map((session) => session.order_ref);
  if (orderRefs.length === 0) throw new Error('No age-only session to read the orders of');
  const texts: string[] = [];
  for (const [table, aads] of Object.entries(ENCRYPTED_COLUMNS)) {
    const columns: { column_name: string }[] = await database.query(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 AND data_type = 'bytea' AND column_name LIKE '%\\_enc'`,
      [table],
    );
    const rows: Record<string, Buffer | string | null>[] = await database.query(
      `SELECT t.*, t::text AS row FROM ${table} t WHERE t.order_ref::text = ANY ($1::text[])`,
      [orderRefs],
    );
    for (const row of rows) {
      texts.push(row.row as string);
      for (const { column_name: column } of columns) {
        const aad = aads[column];
        if (!aad) throw new Error(`${table}.${column} is encrypted with an AAD this test does not know`);
        const sealed = row[column];
        if (sealed) texts.push(cipher.decrypt(sealed as Buffer, aad(row.order_ref as string)));
      }
    }
  }
  return revealed(texts.join('\n'));
}

// base64 or base64url (an SD-JWT's disclosures): Node decodes both alphabets.
const BASE64_RUN = /[A-Za-z0-9+/_-]{40,}={0,2}/g;

/** A text with what it encodes: its JWTs' headers and payloads and its long base64 runs, two levels deep. */
function revealed(text: string, depth = 2): string {
  if (depth === 0) return text;
  const decoded = [...decodedTokensIn(text), ...[...text.matchAll(BASE64_RUN)].map(([run]) => Buffer.from(run, 'base64').toString('utf8'))];
  return [text, ...decoded.map((inner) => revealed(inner, depth - 1))].join('\n');
}
