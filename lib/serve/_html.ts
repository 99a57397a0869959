// Private to `@lib/serve`: escaping and the page frame. Every text from the corpus,
// the models or the workspace goes through `esc` (or `attr`) before it reaches a page.

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML element content and quoted attribute values. */
export function esc(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** A path segment for a link: every character that could end or change the path is encoded. */
export function seg(value: string): string {
  return encodeURIComponent(value);
}

/** Background colour of a 0-5 rating cell (white to deep green); grey when unrated. */
export function heat(rating: number | undefined): string {
  if (rating === undefined) return "#eee";
  const t = Math.max(0, Math.min(5, rating)) / 5;
  const mix = (a: number, b: number) => Math.round(a + (b - a) * t);
  return `rgb(${mix(255, 0)},${mix(255, 109)},${mix(255, 44)})`;
}

/** Inline style of a 0-5 rating cell: its colour, with light text on the dark end. */
export function heatStyle(rating: number | undefined): string {
  return `background:${heat(rating)};color:${
    rating !== undefined && rating >= 3 ? "#fff" : "#1b1b1b"
  }`;
}

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1b1b1b}
header{background:#20324a;color:#fff;padding:.6rem 1.2rem}
header a{color:#cfe3ff;text-decoration:none;margin-right:1rem}
main{padding:1rem 1.2rem;max-width:1200px;box-sizing:border-box}
.scroll{max-width:100%;overflow-x:auto}
table{border-collapse:collapse;margin:.4rem 0 1rem}
th,td{border:1px solid #ccc;padding:.2rem .45rem;vertical-align:top;text-align:left;overflow-wrap:anywhere}
th[aria-sort]::after{content:" \\25B4"}
th[aria-sort=descending]::after{content:" \\25BE"}
details summary{cursor:pointer}
th{background:#f3f5f8}
td.num{text-align:right;font-variant-numeric:tabular-nums}
td.heat{width:1.6rem;text-align:center;font-size:12px}
.text{white-space:pre-wrap;max-width:60rem}
.muted{color:#666}
mark{background:#fff1a8}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:1.2rem}
figure{margin:.4rem 0 1.2rem}
figure img{max-width:100%;border:1px solid #ddd}
code{font-size:13px}
fieldset{border:1px solid #ccc;margin:.6rem 0}
textarea{width:100%;max-width:60rem;font:inherit;box-sizing:border-box}
button{font-size:15px;padding:.3rem 1rem}
.error{color:#a00000;font-weight:600}
`;

/** A long text: its first `limit` characters, the whole on demand (`<details>`). */
export function longText(text: string, limit = 300): string {
  if (text.length <= limit) return `<span class="text">${esc(text)}</span>`;
  return `<details><summary class="text">${esc(text.slice(0, limit - 3))}... ` +
    `<span class="muted">(all ${text.length} characters)</span></summary>` +
    `<div class="text">${esc(text)}</div></details>`;
}

/** A fresh nonce for a page's one script (128 random bits, base64). */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/** A script element the page's policy allows by `nonce`; `code` is the project's own. */
export function script(nonce: string, code: string): string {
  return `<script nonce="${esc(nonce)}">${code}</script>`;
}

/**
 * The explorer's one script: every table with a header row sorts by a column when
 * its header is clicked, or focused and Enter or Space pressed (numbers by value,
 * text in natural order, each body on its own; again to reverse). Sent with the
 * page's nonce; without it a table is a plain table.
 */
export const SORT_SCRIPT = `(function () {
  function key(cell) {
    if (!cell) return "";
    var given = cell.getAttribute("data-value");
    var text = given !== null ? given : cell.textContent.trim();
    var n = Number(text);
    return text !== "" && !isNaN(n) ? n : text;
  }
  document.querySelectorAll("table").forEach(function (table) {
    if (!table.tHead || !table.tHead.rows.length || !table.tBodies.length) return;
    var heads = table.tHead.rows[table.tHead.rows.length - 1].cells;
    Array.prototype.forEach.call(heads, function (th, j) {
      th.tabIndex = 0;
      th.title = "Sort by this column";
      function sort() {
        var up = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", up ? "ascending" : "descending");
        Array.prototype.forEach.call(table.tBodies, function (body) {
          var rows = Array.prototype.slice.call(body.rows);
          rows.sort(function (x, y) {
            var a = key(x.cells[j]), b = key(y.cells[j]);
            var r = typeof a === "number" && typeof b === "number" ? a - b
              : String(a).localeCompare(String(b), "en", { numeric: true });
            return up ? r : -r;
          });
          rows.forEach(function (r) { body.appendChild(r); });
        });
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); }
      });
    });
  });
})();`;

/** A whole page: title, navigation and body (the body is already escaped HTML). */
export function page(
  title: string,
  body: string,
  nav: [string, string][] = [],
  opts: { home?: boolean } = {},
): string {
  const links = [...(opts.home === false ? [] : [["/", "Experiment"]]), ...nav]
    .map(([href, label]) => `<a href="${esc(href)}">${esc(label)}</a>`)
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><header>${links}</header><main><h1>${esc(title)}</h1>
${body}
</main></body></html>
`;
}

/** An HTML table from a header row and rows of already escaped cells. */
export function htmlTable(head: readonly string[], rows: readonly string[][]): string {
  if (rows.length === 0) return `<p class="muted">None.</p>`;
  return `<div class="scroll"><table><thead><tr>${
    head.map((h) => `<th>${esc(h)}</th>`).join("")
  }</tr></thead>` +
    `<tbody>${
      rows.map((r) =>
        `<tr>${r.map((c) => c.startsWith("<td") ? c : `<td>${c}</td>`).join("")}</tr>`
      ).join("")
    }</tbody></table></div>`;
}
