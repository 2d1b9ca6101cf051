/**
 * Draws the extension's icon, images/icon.png (256×256 RGBA; the Marketplace asks for at least 128×128): a
 * Kubernetes-blue rounded square with a white heptagon, the wheel's seven sides, around an eye. Shapes are signed
 * distance functions sampled 4×4 per pixel, written by the small PNG encoder below (zlib only), so the icon is
 * remade without an image tool: `npx tsx scripts/generate-icon.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';

const SIZE = 256;
const SAMPLES = 4;
const OUTPUT = join(__dirname, '..', 'images', 'icon.png');

type Rgb = readonly [number, number, number];

const TOP: Rgb = [0x3b, 0x7b, 0xf0];
const BOTTOM: Rgb = [0x1d, 0x4e, 0xb8];
const WHITE: Rgb = [0xff, 0xff, 0xff];
const PUPIL: Rgb = [0x1d, 0x4e, 0xb8];

/** Distance from (x, y) to a rounded square centred at the origin (negative inside). */
function roundedSquare(x: number, y: number, half: number, radius: number): number {
  const qx = Math.abs(x) - half + radius;
  const qy = Math.abs(y) - half + radius;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

/** Distance from (x, y) to a regular polygon of `sides` with circumradius `radius`, a vertex at the top. */
function regularPolygon(x: number, y: number, sides: number, radius: number): number {
  const apothem = radius * Math.cos(Math.PI / sides);
  let distance = -Infinity;
  for (let side = 0; side < sides; side += 1) {
    const angle = -Math.PI / 2 + ((side + 0.5) * 2 * Math.PI) / sides;
    distance = Math.max(distance, x * Math.cos(angle) + y * Math.sin(angle) - apothem);
  }
  return distance;
}

/** Distance from (x, y) to an almond (two circular arcs meeting at (±width/2, 0)) of the given height. */
function almond(x: number, y: number, width: number, height: number): number {
  const half = width / 2;
  const sag = height / 2;
  const radius = (half * half + sag * sag) / (2 * sag);
  const offset = radius - sag;
  return Math.max(Math.hypot(x, y - offset) - radius, Math.hypot(x, y + offset) - radius);
}

/** The colour of the icon at (x, y) in pixels, or null outside it. */
function shade(x: number, y: number): Rgb | null {
  const cx = x - SIZE / 2;
  const cy = y - SIZE / 2;
  if (roundedSquare(cx, cy, SIZE / 2 - 4, 44) > 0) {
    return null;
  }
  const ring = Math.abs(regularPolygon(cx, cy + 4, 7, 92)) - 9;
  const eye = Math.abs(almond(cx, cy + 4, 120, 70)) - 7;
  const iris = Math.hypot(cx, cy + 4) - 22;
  if (Math.hypot(cx, cy + 4) - 10 < 0) {
    return PUPIL;
  }
  if (ring < 0 || eye < 0 || iris < 0) {
    return WHITE;
  }
  const t = y / SIZE;
  const mix = (channel: 0 | 1 | 2) => Math.round(TOP[channel] * (1 - t) + BOTTOM[channel] * t);
  return [mix(0), mix(1), mix(2)];
}

/** RGBA pixels, row by row, each pixel the average of SAMPLES² samples. */
function render(): Buffer {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  for (let y = 0; y < SIZE; y += 1) {
    for (let x = 0; x < SIZE; x += 1) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < SAMPLES; sy += 1) {
        for (let sx = 0; sx < SAMPLES; sx += 1) {
          const colour = shade(x + (sx + 0.5) / SAMPLES, y + (sy + 0.5) / SAMPLES);
          if (colour !== null) {
            sum[0] = (sum[0] ?? 0) + colour[0];
            sum[1] = (sum[1] ?? 0) + colour[1];
            sum[2] = (sum[2] ?? 0) + colour[2];
            sum[3] = (sum[3] ?? 0) + 1;
          }
        }
      }
      const covered = sum[3] ?? 0;
      const at = (y * SIZE + x) * 4;
      if (covered > 0) {
        pixels[at] = Math.round((sum[0] ?? 0) / covered);
        pixels[at + 1] = Math.round((sum[1] ?? 0) / covered);
        pixels[at + 2] = Math.round((sum[2] ?? 0) / covered);
        pixels[at + 3] = Math.round((255 * covered) / (SAMPLES * SAMPLES));
      }
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) {
    c = (c & 1) !== 0 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return c >>> 0;
});

/** CRC-32 as PNG chunks use it. */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** One PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG of 8-bit RGBA pixels, no filtering. */
export function encodePng(width: number, height: number, rgba: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  const rows = Buffer.alloc(height * (width * 4 + 1));
  for (let y = 0; y < height; y += 1) {
    rgba.copy(rows, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

if (require.main === module) {
  mkdirSync(dirname(OUTPUT), { recursive: true });
  writeFileSync(OUTPUT, encodePng(SIZE, SIZE, render()));
  console.log(`${OUTPUT}: ${SIZE}×${SIZE}`);
}
