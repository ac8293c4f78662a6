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

/**
 * One self-contained HTML page drawing the topology with cytoscape, whose source is inlined (no CDN, works
 * offline). Names reach the page only as JSON data and are shown through cytoscape labels and
 * `textContent`, never as HTML.
 */
export function renderHtmlGraph(topology: Topology, cytoscapeSource: string): string {
  const elements = [
    ...topology.nodes.map((n) => ({
      data: {
        id: n.id,
        label: n.broker === undefined ? n.label : `${n.label} (${n.broker})`,
        kind: n.kind,
        root: n.root ?? '',
        contracts: n.contracts ?? [],
      },
    })),
    ...topology.links.map((l, i) => ({
      data: {
        id: `e${i}`,
        source: l.from,
        target: l.to,
        kind: l.kind,
        label: `${l.kind}${l.weight > 1 ? ` ×${l.weight}` : ''}`,
        confidence: l.confidence,
      },
    })),
  ];
  const title = `meshlens — ${topology.workspace}${topology.zoom ? ` — ${topology.zoom}` : ''}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  html, body { margin: 0; height: 100%; font-family: system-ui, sans-serif; }
  #graph { position: absolute; inset: 0 320px 0 0; }
  #panel { position: absolute; top: 0; right: 0; bottom: 0; width: 300px; padding: 10px; overflow: auto; border-left: 1px solid #ccc; background: #fafafa; }
  #panel h1 { font-size: 15px; margin: 0 0 8px; }
  #panel li { font-size: 12px; margin: 2px 0; word-break: break-all; }
</style>
</head>
<body>
<div id="graph"></div>
<div id="panel"><h1 id="title"></h1><p id="summary"></p><ul id="details"></ul></div>
<script>${cytoscapeSource.replace(/<\/script/gi, '<\\/script')}</script>
<script id="topology" type="application/json">${scriptJson({ title, elements, hidden: topology.hidden })}</script>
<script>
(function () {
  var data = JSON.parse(document.getElementById('topology').textContent);
  document.getElementById('title').textContent = data.title;
  var nodes = data.elements.filter(function (e) { return !e.data.source; });
  var services = nodes.filter(function (e) { return e.data.kind === 'service'; }).length;
  document.getElementById('summary').textContent = services + ' services, ' + (nodes.length - services) + ' other nodes, ' +
    (data.elements.length - nodes.length) + ' links; ' + data.hidden.services.length + ' services folded, ' + data.hidden.ambiguousEdges + ' ambiguous edges not drawn.';
  var cy = cytoscape({
    container: document.getElementById('graph'),
    elements: data.elements,
    layout: { name: 'breadthfirst', directed: true, spacingFactor: 1.2 },
    style: [
      { selector: 'node', style: { label: 'data(label)', 'font-size': 11, 'text-valign': 'bottom', 'background-color': '#4a7bd0', 'text-wrap': 'ellipsis', 'text-max-width': 160 } },
      { selector: 'node[kind = "topic"]', style: { shape: 'round-rectangle', 'background-color': '#e09a2f' } },
      { selector: 'node[kind = "folded"]', style: { shape: 'hexagon', 'background-color': '#999' } },
      { selector: 'edge', style: { label: 'data(label)', 'font-size': 9, 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', width: 1.5 } },
      { selector: 'edge[confidence != "exact"]', style: { 'line-style': 'dashed' } }
    ]
  });
  window.meshlensGraph = cy;
  cy.on('tap', 'node', function (event) {
    var node = event.target.data();
    document.getElementById('title').textContent = node.label;
    var list = document.getElementById('details');
    list.textContent = '';
    (node.contracts || []).forEach(function (c) {
      var item = document.createElement('li');
      item.textContent = c.kind + ' ' + c.name + (c.file ? ' — ' + c.file + ':' + c.line : '');
      list.appendChild(item);
    });
  });
})();
</script>
</body>
</html>
`;
}
