// Per-frame CPU of QR rendering: the qrcode library's default PNG and SVG paths against ours, in one
// run, on distinct BankID frames (every frame differs, so nothing is cached). Prints a markdown table.
// Run: npm run bench:qr (builds first). FRAMES=n changes the frames per path and round.
import { randomUUID } from 'node:crypto';
import QRCode from 'qrcode';
import { qrData } from '../src/eid-providers/shared/animated-qr.js';
import { qrMatrix } from '../src/qr/qr-matrix.js';
import { renderQrPng } from '../src/qr/qr-png.js';
import { renderQrSvg } from '../src/qr/qr-svg.js';
import { printSection } from './lib/report.js';

const FRAMES = Number(process.env.FRAMES ?? 500);
const ROUNDS = 5;

interface Path {
  name: string;
  render: (text: string) => unknown;
}

const PATHS: Path[] = [
  { name: 'HMAC only (qrData: the kiosk stream per frame)', render: () => undefined },
  { name: 'qrcode `toBuffer` PNG, defaults', render: (text) => QRCode.toBuffer(text) },
  {
    name: 'qrcode `toBuffer` PNG, L, scale 6 (previous renderer)',
    render: (text) => QRCode.toBuffer(text, { errorCorrectionLevel: 'L', margin: 4, scale: 6 }),
  },
  { name: '**ours: 1-bit PNG, 6 px/module (294 px)**', render: (text) => renderQrPng(qrMatrix(text), 6) },
  { name: 'qrcode `toString` SVG, defaults', render: (text) => QRCode.toString(text, { type: 'svg' }) },
  {
    name: 'qrcode `toString` SVG, L (previous renderer)',
    render: (text) => QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'L', margin: 4 }),
  },
  { name: '**ours: one-path SVG**', render: (text) => renderQrSvg(qrMatrix(text)) },
  { name: 'ours: the QR matrix alone (qrcode + our mask choice)', render: (text) => qrMatrix(text) },
  { name: 'qrcode `create`, defaults (its matrix alone)', render: (text) => QRCode.create(text, { errorCorrectionLevel: 'L' }) },
];

const token = randomUUID();
const secret = randomUUID();
let qrTime = 0;
const nextFrame = () => qrData(token, secret, qrTime++ % 1_000_000);

/** CPU milliseconds per frame (user + system), awaiting each frame so async paths count in full. */
async function measure(path: Path, frames: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < frames; i++) await path.render(nextFrame());
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / frames;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  // Warm up every path (JIT, caches of versions and masks) before measuring.
  for (const path of PATHS) await measure(path, 200);
  const samples = new Map<Path, number[]>(PATHS.map((path) => [path, []]));
  // Rounds interleave the paths, so a noisy neighbour on the machine hurts them all alike.
  for (let round = 0; round < ROUNDS; round++) for (const path of PATHS) samples.get(path)!.push(await measure(path, FRAMES));
  const cost = new Map(PATHS.map((path) => [path.name, median(samples.get(path)!)]));
  const pngDefault = cost.get(PATHS[1].name)!;
  const svgDefault = cost.get(PATHS[4].name)!;
  const ours = { png: cost.get(PATHS[3].name)!, svg: cost.get(PATHS[6].name)! };

  const lines = [
    `QR rendering, ${FRAMES} distinct frames x ${ROUNDS} rounds, median CPU per frame (Node ${process.version}):`,
    '',
    '| path | CPU ms / frame | frames / s per core |',
    '|---|---:|---:|',
    ...PATHS.map((path) => {
      const ms = cost.get(path.name)!;
      return `| ${path.name} | ${ms.toFixed(3)} | ${Math.round(1000 / ms).toLocaleString('en-US')} |`;
    }),
    '',
    `PNG: ours ${ours.png.toFixed(3)} ms vs qrcode default ${pngDefault.toFixed(3)} ms: ${(pngDefault / ours.png).toFixed(1)}x less CPU (target <= 1 ms: ${ours.png <= 1 ? 'met' : 'MISSED'}).`,
    `SVG: ours ${ours.svg.toFixed(3)} ms vs qrcode default ${svgDefault.toFixed(3)} ms: ${(svgDefault / ours.svg).toFixed(1)}x less CPU (target <= 0.3 ms: ${ours.svg <= 0.3 ? 'met' : 'MISSED'}).`,
    'Every row includes making the frame text (its HMAC), which the first row measures alone.',
  ];
  await printSection('QR rendering per frame', lines);
}

await main();
