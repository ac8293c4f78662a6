/**
 * The topology page's look, as browser script text: the link kinds, confidences and node kinds with their
 * colours, line styles and shapes (one table each, shared by the graph's stylesheet and the legend), the
 * cytoscape elements built from the page's JSON (nodes sized to their measured labels), and the legend's
 * swatches. Names are only ever set as `textContent` or cytoscape labels, never as HTML.
 *
 * No `${`, backticks or closing script tags.
 */
export const TOPOLOGY_LOOK_SCRIPT = String.raw`
var FONT = '"Helvetica Neue", Helvetica, Arial, sans-serif';
var LINK_KINDS = {
  calls_rpc: { name: 'gRPC call', short: 'gRPC', color: '#2b6cb0' },
  calls_http: { name: 'HTTP call', short: 'HTTP', color: '#2f855a' },
  produces: { name: 'produces to topic', short: '', color: '#c05621' },
  consumes: { name: 'consumes from topic', short: '', color: '#805ad5' },
  imports: { name: 'imports', short: 'imports', color: '#4a5568' }
};
var CONFIDENCES = {
  exact: { name: 'exact (solid)', dash: '' },
  heuristic: { name: 'heuristic (dashed)', dash: '6 4' },
  ambiguous: { name: 'ambiguous (dotted)', dash: '1.5 3' }
};
var NODE_KINDS = {
  service: { name: 'service', fill: '#ebf4ff', border: '#2b6cb0', shape: 'round-rectangle' },
  contracts: { name: 'contracts folder (.proto)', fill: '#fff5f7', border: '#b83280', shape: 'cut-rectangle' },
  topic: { name: 'topic', fill: '#fffaf0', border: '#c05621', shape: 'barrel' },
  folded: { name: 'folded services', fill: '#edf2f7', border: '#718096', shape: 'hexagon' }
};

function el(tag, text, className) {
  var node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** Text that may wrap after '/', '.', '_' and '-' (long contract names and paths), as DOM nodes. */
function breakable(text) {
  var fragment = document.createDocumentFragment();
  text.split(/(?<=[\/._-])/).forEach(function (part, i) {
    if (i > 0) fragment.appendChild(document.createElement('wbr'));
    fragment.appendChild(document.createTextNode(part));
  });
  return fragment;
}

function textWidth(text, size) {
  var ctx = textWidth.ctx || (textWidth.ctx = document.createElement('canvas').getContext('2d'));
  ctx.font = size + 'px ' + FONT;
  return ctx.measureText(text).width;
}

function kindOf(kind) { return LINK_KINDS[kind] || { name: kind, short: kind, color: '#4a5568' }; }

function elementsOf(data) {
  var nodes = data.nodes.map(function (n) {
    var label = n.broker === undefined ? n.label : n.label + ' (' + n.broker + ')';
    var text = Math.min(textWidth(label, 12), 260);
    return { group: 'nodes', data: { id: n.id, label: label, name: n.label, kind: n.kind, root: n.root || '',
      contracts: n.contracts || [], width: Math.max(70, text + 26), height: n.kind === 'topic' ? 36 : 32, textWidth: text + 4 } };
  });
  var edges = data.links.map(function (l, i) {
    var kind = kindOf(l.kind);
    var label = kind.short + (l.weight > 1 ? (kind.short ? ' ' : '') + '\u00d7' + l.weight : '');
    return { group: 'edges', data: { id: 'e' + i, source: l.from, target: l.to, kind: l.kind, weight: l.weight,
      confidence: l.confidence, color: kind.color, label: label, lineWidth: 1.5 + Math.min(l.weight - 1, 4) * 0.5,
      labelWidth: label ? textWidth(label, 10) + 8 : 0, labelHeight: label ? 14 : 0 } };
  });
  return nodes.concat(edges);
}

function graphStyle() {
  var style = [
    { selector: 'node', style: { label: 'data(label)', width: 'data(width)', height: 'data(height)', 'font-family': FONT,
      'font-size': 12, color: '#1a202c', 'text-valign': 'center', 'text-halign': 'center', 'text-wrap': 'ellipsis',
      'text-max-width': 'data(textWidth)', 'border-width': 1.5 } },
    { selector: 'edge', style: { 'curve-style': 'round-segments', 'segment-radii': 8, 'edge-distances': 'node-position',
      width: 'data(lineWidth)', 'line-color': 'data(color)', 'target-arrow-color': 'data(color)', 'target-arrow-shape': 'triangle',
      'arrow-scale': 0.9, label: 'data(label)', 'font-family': FONT, 'font-size': 10, color: 'data(color)',
      'text-background-color': '#ffffff', 'text-background-opacity': 0.9, 'text-background-padding': 1 } },
    { selector: 'edge[confidence = "heuristic"]', style: { 'line-style': 'dashed', 'line-dash-pattern': [6, 4] } },
    { selector: 'edge[confidence = "ambiguous"]', style: { 'line-style': 'dotted' } },
    { selector: '.faded', style: { opacity: 0.15 } },
    { selector: 'node.match', style: { 'border-width': 3, 'border-color': '#e53e3e' } },
    { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#d69e2e' } },
    { selector: 'edge:selected', style: { width: 4 } },
    { selector: '.filtered', style: { display: 'none' } }
  ];
  Object.keys(NODE_KINDS).forEach(function (kind) {
    var k = NODE_KINDS[kind];
    style.splice(1, 0, { selector: 'node[kind = "' + kind + '"]', style: { shape: k.shape, 'background-color': k.fill, 'border-color': k.border } });
  });
  return style;
}

var SVG = 'http://www.w3.org/2000/svg';
function svgOf(width, children) {
  var svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('width', width);
  svg.setAttribute('height', '14');
  children.forEach(function (c) {
    var shape = document.createElementNS(SVG, c[0]);
    Object.keys(c[1]).forEach(function (a) { shape.setAttribute(a, c[1][a]); });
    svg.appendChild(shape);
  });
  return svg;
}

function lineSwatch(color, dash) {
  return svgOf(38, [['line', { x1: 1, y1: 7, x2: 30, y2: 7, stroke: color, 'stroke-width': 2, 'stroke-dasharray': dash }],
    ['polygon', { points: '29,3 37,7 29,11', fill: color }]]);
}

function nodeSwatch(kind) {
  var k = NODE_KINDS[kind];
  var paint = { fill: k.fill, stroke: k.border, 'stroke-width': 1.5 };
  var shapes = {
    service: ['rect', Object.assign({ x: 2, y: 2, width: 30, height: 10, rx: 3 }, paint)],
    contracts: ['polygon', Object.assign({ points: '5,2 29,2 32,5 32,9 29,12 5,12 2,9 2,5' }, paint)],
    topic: ['rect', Object.assign({ x: 2, y: 2, width: 30, height: 10, rx: 6, ry: 4 }, paint)],
    folded: ['polygon', Object.assign({ points: '7,2 27,2 32,7 27,12 7,12 2,7' }, paint)]
  };
  return svgOf(38, [shapes[kind]]);
}

/** One legend row; with a checkbox when it filters. */
function legendRow(list, swatch, label, count, onToggle) {
  var row = el('label', undefined, 'row');
  if (onToggle) {
    var box = el('input');
    box.type = 'checkbox';
    box.checked = true;
    box.addEventListener('change', function () { onToggle(box.checked); });
    row.appendChild(box);
  }
  row.appendChild(swatch);
  row.appendChild(el('span', label + ' (' + count + ')'));
  list.appendChild(row);
}
`;
