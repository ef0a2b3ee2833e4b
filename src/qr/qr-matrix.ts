import QRCode from 'qrcode';

/** A QR symbol's modules, row-major, 1 = dark; no quiet zone. */
export interface QrMatrix {
  size: number;
  modules: Uint8Array;
  mask: number;
}

// ISO/IEC 18004 §7.8.2 data mask conditions (i = row, j = column), as qrcode applies them.
const MASK_CONDITIONS: ((i: number, j: number) => boolean)[] = [
  (i, j) => (i + j) % 2 === 0,
  (i) => i % 2 === 0,
  (_i, j) => j % 3 === 0,
  (i, j) => (i + j) % 3 === 0,
  (i, j) => (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0,
  (i, j) => ((i * j) % 2) + ((i * j) % 3) === 0,
  (i, j) => (((i * j) % 2) + ((i * j) % 3)) % 2 === 0,
  (i, j) => (((i * j) % 3) + ((i + j) % 2)) % 2 === 0,
];

interface VersionTables {
  /** Per mask k: what turns the mask-0 symbol into the mask-k one (both masks on data modules, both format infos). */
  fromMask0: Uint8Array[];
  /** The same, bit-sliced for the scorer. */
  fromMask0Slices: BitSlices[];
}

const tablesByVersion = new Map<number, VersionTables>();
const scorersBySize = new Map<number, PenaltyScorer>();

/**
 * The QR matrix of `text` in byte mode at error correction L: the same symbol `QRCode.create`
 * makes for a byte segment, at about a third of its CPU cost.
 *
 * qrcode builds the codewords and places them; what is replaced is its mask choice, which scores all
 * eight masks module by module (about 0.5 ms, most of a frame's cost at a thousand kiosks). Here the
 * symbol is made once with mask 0 and the same penalty rules (N1–N4, as qrcode computes them) are
 * scored for each mask 32 lines at a time with bitwise operations. qr-matrix.spec.ts checks that the
 * chosen mask and every module equal qrcode's own output.
 *
 * Byte mode: animated frames are ASCII; qrcode's default would split the digits into numeric
 * segments, which saves a few bits but never a version here (version 6 either way) and costs more.
 */
export function qrMatrix(text: string): QrMatrix {
  const symbol = QRCode.create([{ data: Buffer.from(text), mode: 'byte' }], { errorCorrectionLevel: 'L', maskPattern: 0 });
  const { size, data: modules } = symbol.modules;
  const tables = tablesFor(symbol.version, size);
  let scorer = scorersBySize.get(size);
  if (!scorer) scorersBySize.set(size, (scorer = new PenaltyScorer(size)));
  scorer.load(modules);
  let best = 0;
  let bestPenalty = Infinity;
  for (let mask = 0; mask < 8; mask++) {
    const penalty = scorer.score(tables.fromMask0Slices[mask]);
    // Strictly lower wins, so ties keep the lower mask, as qrcode does.
    if (penalty < bestPenalty) {
      bestPenalty = penalty;
      best = mask;
    }
  }
  if (best !== 0) {
    const delta = tables.fromMask0[best];
    for (let i = 0; i < modules.length; i++) modules[i] ^= delta[i];
  }
  return { size, modules, mask: best };
}

function tablesFor(version: number, size: number): VersionTables {
  const cached = tablesByVersion.get(version);
  if (cached) return cached;
  // Reserved modules depend only on version, error correction level and mask: read them from a symbol per mask.
  const flips = MASK_CONDITIONS.map((condition, mask) => {
    const sample = QRCode.create([{ data: Buffer.from('0'), mode: 'byte' }], {
      errorCorrectionLevel: 'L',
      version,
      maskPattern: mask as 0,
    }).modules;
    const flip = new Uint8Array(size * size);
    for (let row = 0; row < size; row++) {
      for (let col = 0; col < size; col++) {
        const i = row * size + col;
        flip[i] = sample.reservedBit[i] ? sample.data[i] : condition(row, col) ? 1 : 0;
      }
    }
    return flip;
  });
  const fromMask0 = flips.map((flip) => flip.map((bit, i) => bit ^ flips[0][i]));
  const tables = { fromMask0, fromMask0Slices: fromMask0.map((delta) => sliceBits(delta, size)) };
  tablesByVersion.set(version, tables);
  return tables;
}

/**
 * A matrix bit-sliced both ways: `across[c]` holds column c with one row per bit, `down[r]` holds
 * row r with one column per bit (lines longer than 32 modules take several 32-bit words), so
 * comparing neighbouring columns (or rows) tests 32 lines in one operation.
 */
interface BitSlices {
  across: Int32Array;
  down: Int32Array;
}

const wordsPerLine = (size: number) => Math.ceil(size / 32);

function sliceBits(modules: Uint8Array, size: number, into?: BitSlices): BitSlices {
  const words = wordsPerLine(size);
  const across = into?.across.fill(0) ?? new Int32Array(size * words);
  const down = into?.down.fill(0) ?? new Int32Array(size * words);
  for (let row = 0, i = 0; row < size; row++) {
    for (let col = 0; col < size; col++, i++) {
      const bit = modules[i] & 1;
      across[col * words + (row >>> 5)] |= bit << (row & 31);
      down[row * words + (col >>> 5)] |= bit << (col & 31);
    }
  }
  return { across, down };
}

/** qrcode's mask penalty (N1 runs, N2 blocks, N3 finder-like patterns, N4 balance) on bit slices. */
class PenaltyScorer {
  private readonly words: number;
  private readonly raw: BitSlices;
  private readonly across: Int32Array;
  private readonly down: Int32Array;
  private readonly same: Int32Array;
  private readonly light: Int32Array;
  private readonly finder: Int32Array;

  constructor(private readonly size: number) {
    this.words = wordsPerLine(size);
    this.raw = { across: new Int32Array(size * this.words), down: new Int32Array(size * this.words) };
    this.across = new Int32Array(size * this.words);
    this.down = new Int32Array(size * this.words);
    this.same = new Int32Array(size);
    this.light = new Int32Array(size);
    this.finder = new Int32Array(size);
  }

  load(modules: Uint8Array): void {
    sliceBits(modules, this.size, this.raw);
  }

  /** The penalty of the loaded modules with `flip` applied. */
  score(flip: BitSlices): number {
    const { across, down, raw } = this;
    let dark = 0;
    for (let i = 0; i < across.length; i++) {
      across[i] = raw.across[i] ^ flip.across[i];
      down[i] = raw.down[i] ^ flip.down[i];
      dark += popcount(down[i]);
    }
    return this.lines(across) + this.lines(down) + this.blocks(down) + balancePenalty(dark, this.size * this.size);
  }

  /** N1 and N3 along the lines that `slices` cuts across (bit b of slice k = module k of line b). */
  private lines(slices: Int32Array): number {
    const { size, words, same, light, finder } = this;
    let points = 0;
    for (let w = 0; w < words; w++) {
      const valid = validBits(size - w * 32);
      // same[k]: modules k and k+1 of each line are equal.
      for (let k = 0; k + 1 < size; k++) same[k] = ~(slices[k * words + w] ^ slices[(k + 1) * words + w]) & valid;
      for (let k = 0; k + 4 < size; k++) {
        // N1: a run of L ≥ 5 scores 3 + (L − 5), that is one per window of five plus 2 at its start.
        const five = same[k] & same[k + 1] & same[k + 2] & same[k + 3];
        if (five === 0) continue;
        points += popcount(five) + 2 * popcount(k === 0 ? five : five & ~same[k - 1]);
      }
      // N3: 1011101 with four light modules after it (qrcode's 0x5D0) or before it (0x05D).
      const at = (k: number) => slices[k * words + w];
      for (let k = 0; k + 3 < size; k++) light[k] = ~(at(k) | at(k + 1) | at(k + 2) | at(k + 3));
      for (let k = 0; k + 6 < size; k++) finder[k] = at(k) & ~at(k + 1) & at(k + 2) & at(k + 3) & at(k + 4) & ~at(k + 5) & at(k + 6);
      for (let k = 0; k + 10 < size; k++) {
        const found = (finder[k] & light[k + 7]) | (light[k] & finder[k + 4]);
        if (found !== 0) points += 40 * popcount(found & valid);
      }
    }
    return points;
  }

  /** N2: 2×2 blocks of one colour, from pairs of neighbouring rows. */
  private blocks(rows: Int32Array): number {
    const { size, words } = this;
    let count = 0;
    for (let r = 0; r + 1 < size; r++) {
      for (let w = 0; w < words; w++) {
        const a = rows[r * words + w];
        const b = rows[(r + 1) * words + w];
        // Column c+1 of the same row: the next bit, borrowing bit 0 of the next word at the edge.
        const nextA = (a >>> 1) | (w + 1 < words ? rows[r * words + w + 1] << 31 : 0);
        const nextB = (b >>> 1) | (w + 1 < words ? rows[(r + 1) * words + w + 1] << 31 : 0);
        count += popcount(~(a ^ b) & ~(a ^ nextA) & ~(b ^ nextB) & validBits(size - 1 - w * 32));
      }
    }
    return count * 3;
  }
}

function balancePenalty(dark: number, total: number): number {
  return Math.abs(Math.ceil((dark * 100) / total / 5) - 10) * 10;
}

const validBits = (remaining: number): number => (remaining >= 32 ? -1 : remaining <= 0 ? 0 : (1 << remaining) - 1);

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) | 0;
}
