import {
  deepStrictEqual as assertEquals,
  notDeepStrictEqual as assertNotEquals,
} from "node:assert/strict";
import { seriesPalette } from "./series_palette.ts";

Deno.test("seriesPalette: references take reserved styles, pipelines distinct colours", () => {
  const p = seriesPalette([
    { name: "bm25", kind: "pipeline" },
    { name: "Direct", kind: "direct" },
    { name: "dense", kind: "pipeline" },
    { name: "Oracle context P*", kind: "oracle-context" },
    { name: "Oracle result", kind: "oracle-result" },
  ]);
  assertEquals(p.order, ["bm25", "Direct", "dense", "Oracle context P*", "Oracle result"]);
  assertEquals(p.series["bm25"], { color: "#0072B2", shape: "circle", kind: "pipeline" });
  assertEquals(p.series["dense"], { color: "#E69F00", shape: "square", kind: "pipeline" });
  assertEquals(p.series["Direct"].color, "#7F7F7F");
  assertEquals(p.series["Oracle context P*"].color, "#D55E00");
  assertEquals(p.series["Oracle result"].color, "#332288");
});

Deno.test("seriesPalette: a base palette keeps its styles; new series skip used pairs", () => {
  const base = seriesPalette([{ name: "dense", kind: "pipeline" }]);
  const p = seriesPalette(["bm25", "dense", "splade"], base);
  assertEquals(p.order, ["dense", "bm25", "splade"]);
  assertEquals(p.series["dense"].color, "#0072B2");
  assertEquals(p.series["bm25"].color, "#E69F00");
  assertEquals(base.order, ["dense"]);
});

Deno.test("seriesPalette: 20 series never share both colour and shape", () => {
  const p = seriesPalette(Array.from({ length: 20 }, (_, i) => `run-${i}`));
  const pairs = new Set(p.order.map((n) => `${p.series[n].color} ${p.series[n].shape}`));
  assertEquals(pairs.size, 20);
  assertEquals(p.series["run-13"], { color: "#0072B2", shape: "square", kind: "other" });
  assertNotEquals(p.series["run-6"].shape, p.series["run-5"].shape);
});

Deno.test("seriesPalette: a series like another shares its style and takes no new pair", () => {
  const p = seriesPalette([
    { name: "bm25", kind: "pipeline" },
    { name: "rag-bm25", like: "bm25" },
    { name: "dense", kind: "pipeline" },
    { name: "direct", like: "Direct (no context)" }, // unknown yet: a style of its own
  ]);
  assertEquals(p.series["rag-bm25"], { color: "#0072B2", shape: "circle", kind: "pipeline" });
  assertEquals(p.series["dense"], { color: "#E69F00", shape: "square", kind: "pipeline" });
  assertEquals(p.series["direct"], { color: "#009E73", shape: "triangle-up", kind: "other" });
  assertEquals(p.order, ["bm25", "rag-bm25", "dense", "direct"]);
});
