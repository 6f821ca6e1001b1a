import Foundation

/// The self-contained HTML page of `autotrack inspect`: the inspection data inlined as
/// JSON, the wireframe, the element panel, search and the heat map — no network, no
/// external assets.
public enum InspectPage {
    /// What the page shows: the screens, the clicks' heat, where the clicks came from,
    /// and — served live — the session's step.
    public struct Payload: Encodable, Sendable {
        /// The screens.
        public var screens: [ScreenInspection.ScreenInfo]
        /// The clicks.
        public var heat: ClickHeat
        /// The events file, or the live session.
        public var source: String?
        /// Whether the page follows a live session (`autotrack inspect --serve`).
        public var live: Bool
        /// The live session's last step, in words.
        public var step: String?

        /// A payload.
        public init(screens: [ScreenInspection.ScreenInfo], heat: ClickHeat, source: String?, live: Bool = false, step: String? = nil) {
            self.screens = screens
            self.heat = heat
            self.source = source
            self.live = live
            self.step = step
        }

        /// The payload as JSON.
        public func json() throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        }
    }

    /// The page for `inspection`, with the clicks' `heat` (empty: no heat map) and the
    /// name of the events file they came from.
    ///
    /// Every text — element content, types, paths, ids, screen names, titles, the file
    /// name — reaches the page only as data, never as markup: the embedded JSON is
    /// escaped for the HTML context, and the page's script puts it in text nodes.
    public static func html(_ inspection: ScreenInspection, heat: ClickHeat, source: String?) throws -> String {
        try html(Payload(screens: inspection.screens, heat: heat, source: source))
    }

    /// The page for `payload`; a live one follows the session's updates at `/events`.
    public static func html(_ payload: Payload) throws -> String {
        template.replacingOccurrences(of: "__DATA__", with: escapedForScriptElement(try payload.json()))
    }

    /// `json` made safe inside a `<script>` element: `<`, `>` and `&` (which could open
    /// `</script>`, `<!--` or a character reference) and the line separators U+2028
    /// and U+2029 are written as JSON `\u` escapes, which mean the same to `JSON.parse`
    /// — they can only occur inside strings.
    static func escapedForScriptElement(_ json: String) -> String {
        var escaped = String.UnicodeScalarView()
        escaped.reserveCapacity(json.unicodeScalars.count)
        for scalar in json.unicodeScalars {
            switch scalar {
            case "<": escaped.append(contentsOf: "\\u003c".unicodeScalars)
            case ">": escaped.append(contentsOf: "\\u003e".unicodeScalars)
            case "&": escaped.append(contentsOf: "\\u0026".unicodeScalars)
            case "\u{2028}": escaped.append(contentsOf: "\\u2028".unicodeScalars)
            case "\u{2029}": escaped.append(contentsOf: "\\u2029".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// The page, with `__DATA__` where the inspection goes.
    static let template = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>AutoTrack inspect — the sample app's screens</title>
<style>
  body { font: 14px -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 0; color: #1d1d1f; background: #f5f5f7; }
  header { padding: 12px 20px; background: #fff; border-bottom: 1px solid #ddd; display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
  header h1 { font-size: 16px; margin: 0 12px 0 0; }
  button.screen { border: 1px solid #bbb; background: #fff; border-radius: 6px; padding: 4px 10px; cursor: pointer; }
  button.screen.active { background: #0a66d8; color: #fff; border-color: #0a66d8; }
  input#search { padding: 5px 8px; border: 1px solid #bbb; border-radius: 6px; min-width: 260px; }
  main { display: flex; gap: 20px; padding: 20px; align-items: flex-start; }
  #device { position: relative; background: #fff; border: 2px solid #333; border-radius: 18px; overflow: hidden; flex: none; }
  .el { position: absolute; box-sizing: border-box; border: 1px solid rgba(10,102,216,.35); font-size: 10px; overflow: hidden;
        white-space: nowrap; text-overflow: ellipsis; color: #333; padding: 1px 2px; cursor: pointer; }
  .el:hover { border-color: #0a66d8; background: rgba(10,102,216,.08); }
  .el.inert { border-style: dashed; border-color: rgba(120,120,120,.35); cursor: default; }
  .el.pinned { border: 2px solid #d83b0a; background: rgba(216,59,10,.10); }
  .el.match { border: 2px solid #0a9a3d; background: rgba(10,154,61,.15); }
  .el .count { position: absolute; right: 1px; top: 1px; background: #d83b0a; color: #fff; border-radius: 8px; padding: 0 4px; font-size: 9px; }
  aside { flex: 1; min-width: 320px; }
  aside section { background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 12px; margin-bottom: 12px; }
  aside h2 { font-size: 13px; margin: 0 0 8px; text-transform: uppercase; color: #666; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 10px; margin: 0; }
  dt { color: #666; } dd { margin: 0; word-break: break-all; font-family: ui-monospace, Menlo, monospace; font-size: 12px; }
  pre { margin: 0; font-size: 11px; max-height: 420px; overflow: auto; background: #fafafa; padding: 8px; border-radius: 6px; }
  #legend { display: flex; align-items: center; gap: 8px; font-size: 12px; }
  #legend .bar { width: 160px; height: 10px; background: linear-gradient(to right, rgba(216,59,10,.08), rgba(216,59,10,.85)); border-radius: 4px; }
</style>
</head>
<body>
<header>
  <h1>AutoTrack inspect</h1>
  <span id="screens"></span>
  <input id="search" type="search" placeholder="Find by id, path or content">
  <span id="step"></span>
  <span id="legend" hidden><span>clicks</span><span id="legend-min">0</span><span class="bar"></span><span id="legend-max"></span></span>
</header>
<main>
  <div id="device"></div>
  <aside>
    <section><h2>Element</h2><dl id="info"><dt>hover</dt><dd>an element to see it; click to pin it</dd></dl></section>
    <section><h2>$AppClick it produces</h2><pre id="click">—</pre></section>
    <section id="heat" hidden><h2>Clicks by element</h2><pre id="heat-list"></pre></section>
  </aside>
</main>
<pre id="selftest-result" hidden></pre>
<script type="application/json" id="data">__DATA__</script>
<script>
"use strict";
let data = JSON.parse(document.getElementById("data").textContent);
const scale = 0.8;
let current = null, pinned = null;
const device = document.getElementById("device");
// Each click counts once, under the screen it happened on.
const clicksOf = (e) => e.click ? data.heat.entries.filter((h) => h.screenName === e.clickScreen && (h.elementID === e.slashID || h.elementID === e.hubbleID))
  .reduce((sum, h) => sum + h.count, 0) : 0;
const maxClicks = () => Math.max(0, ...data.heat.entries.map((h) => h.count));

function describe(e) {
  const rows = [["type", e.type], ["content", e.content ?? "—"], ["slash path", e.slashPath], ["slash id", e.slashID],
                ["hubble path", e.hubblePath], ["hubble id", e.hubbleID],
                ["frame", `${e.x}, ${e.y}, ${e.width} × ${e.height}` + (e.laidOutForDisplay ? " (laid out for display)" : "")]];
  if (maxClicks() > 0) rows.push(["clicks", String(clicksOf(e))]);
  const info = document.getElementById("info");
  info.replaceChildren(...rows.flatMap(([k, v]) => { const dt = document.createElement("dt"); dt.textContent = k;
    const dd = document.createElement("dd"); dd.textContent = v; dd.dataset.field = k; return [dt, dd]; }));
  document.getElementById("click").textContent = e.click ?? "none: a tap here does nothing (not interactive, cannot be picked)";
}

function render(screen) {
  current = screen; pinned = null;
  device.style.width = `${screen.width * scale}px`; device.style.height = `${screen.height * scale}px`;
  device.replaceChildren();
  const most = maxClicks();
  for (const [i, e] of screen.elements.entries()) {
    if (e.width <= 0 || e.height <= 0) continue;
    const div = document.createElement("div");
    div.className = e.click ? "el" : "el inert"; div.dataset.index = i; div.dataset.id = e.slashID;
    div.style.left = `${e.x * scale}px`; div.style.top = `${e.y * scale}px`;
    div.style.width = `${e.width * scale}px`; div.style.height = `${e.height * scale}px`;
    div.style.zIndex = String(e.click ? e.depth + 1000 : e.depth);
    div.textContent = e.isLeaf ? (e.content ?? "") : "";
    div.title = e.type;
    const n = clicksOf(e);
    if (most > 0 && n > 0) {
      div.style.background = `rgba(216,59,10,${0.08 + 0.77 * n / most})`;
      const badge = document.createElement("span"); badge.className = "count"; badge.textContent = n; div.appendChild(badge);
    }
    div.addEventListener("mouseenter", () => { if (!pinned) describe(e); });
    div.addEventListener("click", (event) => { event.stopPropagation(); if (e.click) pin(div, e); });
    device.appendChild(div);
  }
  for (const b of document.querySelectorAll("button.screen")) b.classList.toggle("active", b.dataset.choice === screen.choice);
  search(document.getElementById("search").value);
}

function pin(div, e) {
  for (const p of device.querySelectorAll(".pinned")) p.classList.remove("pinned");
  div.classList.add("pinned"); pinned = e; describe(e);
}

function search(text) {
  const query = text.trim().toLowerCase();
  for (const div of device.querySelectorAll(".el")) {
    const e = current.elements[div.dataset.index];
    const hit = query.length > 0 && [e.slashID, e.hubbleID, e.slashPath, e.hubblePath, e.content ?? ""].some((v) => v.toLowerCase().includes(query));
    div.classList.toggle("match", hit);
  }
}

function show() {
  const picker = document.getElementById("screens");
  picker.replaceChildren();
  for (const screen of data.screens) {
    const b = document.createElement("button");
    b.className = "screen"; b.dataset.choice = screen.choice; b.textContent = `${screen.choice} (${screen.screenName})`;
    b.addEventListener("click", () => render(screen));
    picker.appendChild(b);
  }
  document.getElementById("step").textContent = data.live ? `live: ${data.step ?? "—"}` : "";
  const most = maxClicks();
  document.getElementById("legend").hidden = most === 0;
  document.getElementById("legend-max").textContent = String(most);
  document.getElementById("heat").hidden = most === 0;
  const rows = data.heat.entries.map((h) => `${String(h.count).padStart(4)}  ${h.screenName}  ${h.type}  ${h.content ?? ""}`);
  document.getElementById("heat-list").textContent = rows.join("\n") + (data.source ? `\n\nfrom ${data.source}` : "");
  const keep = current && data.screens.find((s) => s.choice === current.choice);
  render(keep ?? data.screens[0]);
}

document.getElementById("search").addEventListener("input", (event) => search(event.target.value));
show();

let stream = null;
if (data.live) {
  stream = new EventSource("/events");
  stream.addEventListener("message", (message) => { data = JSON.parse(message.data); show(); });
}

// A self-check a headless browser can read back (the page at #selftest).
function report(result) {
  const out = document.getElementById("selftest-result");
  out.textContent = JSON.stringify(result); out.hidden = false;
}

if (location.hash === "#selftest") {
  const result = { screens: [], clicked: null };
  for (const screen of data.screens) {
    render(screen);
    result.screens.push({ choice: screen.choice, drawn: device.querySelectorAll(".el").length, heat: device.querySelectorAll(".el .count").length,
                          pickable: device.querySelectorAll(".el:not(.inert)").length });
  }
  render(data.screens[0]);
  const target = [...device.querySelectorAll(".el:not(.inert)")].find((d) => current.elements[d.dataset.index].content);
  target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  const shown = document.querySelector('#info dd[data-field="slash id"]').textContent;
  const json = JSON.parse(document.getElementById("click").textContent);
  result.clicked = { index: Number(target.dataset.index), shownID: shown, clickID: json.properties["$element_id"], pinned: target.classList.contains("pinned"),
                     libMethod: json.lib ? json.lib["$lib_method"] : null };
  const inert = device.querySelector(".el.inert");
  if (inert) inert.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  result.inertPinned = inert ? inert.classList.contains("pinned") : false;
  document.getElementById("search").value = shown;
  search(shown);
  result.searchMatches = device.querySelectorAll(".el.match").length;
  result.heatRows = data.heat.entries.length;
  report(result);
}

// The live self-check: steps the session until the screen changes, then reports what
// the page showed before and after. Driven by the stream's messages alone (no timers:
// a headless browser's virtual time stands still while the stream is open).
if (location.hash === "#selftest-live") {
  let updates = 0;
  stream.addEventListener("message", () => { updates += 1; });
  const nextMessage = () => new Promise((resolve) => stream.addEventListener("message", () => resolve(), { once: true }));
  (async () => {
    const first = nextMessage();
    if (updates === 0) await first;
    const before = data.screens[0].screenName;
    for (let i = 0; i < 12 && data.screens[0].screenName === before; i++) {
      const next = nextMessage();
      await fetch("/step", { method: "POST" });
      await next;
    }
    stream.close();
    report({ before, after: data.screens[0].screenName, updates, step: data.step, drawn: device.querySelectorAll(".el").length,
             heatRows: data.heat.entries.length });
  })();
}
</script>
</body>
</html>
"""#
}
