// Signatures of the form "inside one tag, X and then Y" cannot be one regular expression without a
// `[^>]*` between the parts, and that loop, tried from every `<`, costs quadratic time on a body
// of unclosed tags (docs/protection.md, "Linear time"). This scanner reads the text once instead.

/** Something that tells whether a text shows a signature; a RegExp is one. */
export interface Signature {
  test(text: string): boolean;
}

/**
 * True when, between a tag opener and the next `>`, `first` occurs and (if given) `then` after it.
 * Each token is matched once, left to right, so the time is linear in the text.
 */
export function withinOneTag(opener: string, first: string, then?: string): Signature {
  const source = `(${opener})|(>)|(${first})` + (then === undefined ? '' : `|(${then})`);
  return {
    test(text: string): boolean {
      const tokens = new RegExp(source, 'g');
      let inTag = false;
      let firstSeen = false;
      for (let token = tokens.exec(text); token !== null; token = tokens.exec(text)) {
        if (token[1] !== undefined) [inTag, firstSeen] = [true, false];
        else if (token[2] !== undefined) inTag = false;
        else if (!inTag) continue;
        else if (token[3] !== undefined) {
          if (then === undefined) return true;
          firstSeen = true;
        } else if (firstSeen) return true;
      }
      return false;
    },
  };
}
