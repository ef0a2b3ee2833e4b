import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';

// jsqr is CommonJS with a TypeScript `export default`: under nodenext the default import is typed as
// the module namespace, while at run time it is the function itself.
type JsQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR: JsQr = ((jsQRModule as unknown as { default?: JsQr }).default ?? jsQRModule) as JsQr;

/** Decodes the QR code in a PNG, as a phone's camera would read it. */
export function decodeQrPng(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length), image.width, image.height)?.data;
}
