import { TOPOLOGY_LAYOUT_SCRIPT } from './topology-page-layout.js';
import { TOPOLOGY_LOOK_SCRIPT } from './topology-page-look.js';
import { TOPOLOGY_UI_SCRIPT } from './topology-page-ui.js';
import type { Topology } from './topology.js';

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** JSON inside a `<script>` element: `<` escaped so no name can close the script or open a tag. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** The browser builds inlined into the page: cytoscape draws, dagre lays out. */
export interface PageLibraries {
  readonly cytoscape: string;
  readonly dagre: string;
}

/** A library's source inside a `<script>`: nothing that closes it, and no source map pointing at a file. */
const inlineScript = (source: string): string =>
  source.replace(/<\/script/gi, '<\\/script').replace(/^\/\/# sourceMappingURL=.*$/gm, '');

const STYLE = `
  html, body { margin: 0; height: 100%; font: 13px/1.4 "Helvetica Neue", Helvetica, Arial, sans-serif; color: #1a202c; }
  #graph { position: absolute; inset: 0 340px 0 0; }
  #panel { position: absolute; top: 0; right: 0; bottom: 0; width: 320px; padding: 10px; overflow: auto; border-left: 1px solid #cbd5e0; background: #f7fafc; }
  #panel h1 { font-size: 15px; margin: 0 0 4px; overflow-wrap: anywhere; }
  #panel h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: #4a5568; margin: 12px 0 4px; }
  #panel h3 { font-size: 13px; margin: 10px 0 2px; }
  #panel ul { margin: 0; padding-left: 16px; }
  #panel li { margin: 3px 0; overflow-wrap: anywhere; }
  #panel code { font-size: 12px; color: #2c5282; }
  #search { width: 100%; box-sizing: border-box; padding: 5px; margin-top: 8px; }
  .row { display: flex; align-items: center; gap: 6px; margin: 2px 0; cursor: pointer; }
  .muted { color: #4a5568; }
  #search-status { margin: 2px 0; min-height: 1em; font-size: 12px; color: #4a5568; }
`;

/**
 * One self-contained HTML page drawing the topology: cytoscape and dagre inlined (no CDN, works offline),
 * a layered layout whose edges never cross a node, a legend whose rows filter by link kind and confidence,
 * a search box, and a details panel. Names reach the page only as JSON data and are shown through
 * cytoscape labels and `textContent`, never as HTML.
 */
export function renderHtmlGraph(topology: Topology, libraries: PageLibraries): string {
  const title = `meshlens — ${topology.workspace}${topology.zoom ? ` — ${topology.zoom}` : ''}`;
  const data = { title, nodes: topology.nodes, links: topology.links, hidden: topology.hidden };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<div id="graph"></div>
<aside id="panel">
<h1 id="title"></h1>
<p id="summary" class="muted"></p>
<input id="search" type="search" list="names" placeholder="Find a service or topic" aria-label="Find a node" autocomplete="off">
<datalist id="names"></datalist>
<p id="search-status"></p>
<h2>Links</h2><div id="kinds"></div>
<h2>Confidence</h2><div id="confidences"></div>
<h2>Nodes</h2><div id="node-kinds"></div>
<h2>Details</h2><div id="details">Click a node for its contracts and links, or a link for what it folds.</div>
</aside>
<script>${inlineScript(libraries.cytoscape)}</script>
<script>${inlineScript(libraries.dagre)}</script>
<script id="topology" type="application/json">${scriptJson(data)}</script>
<script>
(function () {
${TOPOLOGY_LOOK_SCRIPT}
${TOPOLOGY_LAYOUT_SCRIPT}
${TOPOLOGY_UI_SCRIPT}
showTopology(JSON.parse(document.getElementById('topology').textContent), window.cytoscape, window.dagre);
})();
</script>
</body>
</html>
`;
}
