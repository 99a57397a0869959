/**
 * Private: the small script that makes an HTML table sortable by clicking a
 * column header (numbers by their `data-value`, text in natural order; each
 * row group sorted on its own). Runs in notebooks (trusted output) and the
 * gallery page; without scripts the table is still a plain table.
 *
 * @module
 */

/** Deterministic id for a table's markup (FNV-1a of the text). */
export function tableId(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `crux-table-${h.toString(16).padStart(8, "0")}`;
}

/** The `<script>` making table `id` sortable. */
export function sortScript(id: string): string {
  return `<script>(function(){var t=document.getElementById("${id}");` +
    `if(!t||t.getAttribute("data-sortable")==="on")return;t.setAttribute("data-sortable","on");` +
    `var hr=t.tHead.rows[t.tHead.rows.length-1].cells;` +
    `function key(c){var v=c?c.getAttribute("data-value"):null;` +
    `return v!==null&&v!==""&&!isNaN(+v)?+v:(c?c.textContent:"");}` +
    `Array.prototype.forEach.call(hr,function(th,j){th.style.cursor="pointer";` +
    `th.title="Click to sort";th.addEventListener("click",function(){` +
    `var d=th.getAttribute("data-dir")==="asc"?"desc":"asc";th.setAttribute("data-dir",d);` +
    `Array.prototype.forEach.call(t.tBodies,function(b){` +
    `var rs=Array.prototype.slice.call(b.rows);rs.sort(function(x,y){` +
    `var a=key(x.cells[j]),c=key(y.cells[j]);var r=typeof a==="number"&&typeof c==="number"?a-c:` +
    `String(a).localeCompare(String(c),undefined,{numeric:true});return d==="asc"?r:-r;});` +
    `rs.forEach(function(r){b.appendChild(r);});});});});})();</script>`;
}
