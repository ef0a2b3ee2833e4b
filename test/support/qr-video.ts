import { writeFile } from 'node:fs/promises';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';

const WIDTH = 640;
const HEIGHT = 480;

/**
 * A Y4M video (4:2:0) of one QR code on white, for Chromium's fake camera
 * (`--use-file-for-fake-video-capture`), which plays it in a loop: made at test time from a PNG.
 */
export async function writeQrVideo(path: string, text: string): Promise<void> {
  const png = PNG.sync.read(await QRCode.toBuffer(text, { type: 'png', margin: 4, scale: 8, errorCorrectionLevel: 'M' }));
  const luma = Buffer.alloc(WIDTH * HEIGHT, 235);
  const left = Math.floor((WIDTH - png.width) / 2);
  const top = Math.floor((HEIGHT - png.height) / 2);
  for (let y = 0; y < png.height && top + y < HEIGHT; y++) {
    for (let x = 0; x < png.width && left + x < WIDTH; x++) {
      const i = (y * png.width + x) * 4;
      const grey = (png.data[i] * 299 + png.data[i + 1] * 587 + png.data[i + 2] * 114) / 1000;
      luma[(top + y) * WIDTH + left + x] = grey < 128 ? 16 : 235;
    }
  }
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  await writeFile(path, Buffer.concat([Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F5:1 Ip A1:1 C420jpeg\n`), frame, frame]));
}
