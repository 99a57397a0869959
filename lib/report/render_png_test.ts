import assert from "node:assert/strict";
import { renderPng } from "./render_png.ts";

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40">' +
  '<rect width="120" height="40" fill="white"/>' +
  '<text x="4" y="28" font-family="DejaVu Sans" font-size="20" fill="black">Cov@10</text></svg>';

/** Width and height from the PNG's IHDR chunk. */
function size(png: Uint8Array): [number, number] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return [view.getUint32(16), view.getUint32(20)];
}

/** Number of distinct non-white pixels is hard to get without a decoder; compare with a blank SVG instead. */
const BLANK = SVG.replace(/<text.*<\/text>/, "");

Deno.test("renderPng writes a PNG scaled from the SVG size", () => {
  const png = renderPng(SVG, { scale: 2 });
  assert.deepEqual([...png.slice(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.deepEqual(size(png), [240, 80]);
  assert.deepEqual(size(renderPng(SVG)), [240, 80], "default scale is 2");
  assert.deepEqual(size(renderPng(SVG, { scale: 1 })), [120, 40]);
});

Deno.test("renderPng draws text with the bundled font", () => {
  // A blank canvas compresses to far fewer bytes than one with glyphs on it.
  const withText = renderPng(SVG, { scale: 1 }).length;
  const blank = renderPng(BLANK, { scale: 1 }).length;
  assert.ok(withText > blank + 200, `text PNG ${withText} bytes vs blank ${blank} bytes`);
});

Deno.test("renderPng rejects a bad scale and unparseable SVG", () => {
  assert.throws(() => renderPng(SVG, { scale: 0 }), {
    name: "RangeError",
    message: "Cannot render PNG: scale 0 is invalid; use a positive number such as 2",
  });
  assert.throws(() => renderPng("<svg", {}), {
    message: /^Cannot render PNG: the SVG does not parse/,
  });
});
