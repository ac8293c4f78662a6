/**
 * The topology page's layout, as browser script text: dagre's layered layout (top to bottom) places the
 * nodes and routes every edge, and the routes are drawn as cytoscape segment edges.
 *
 * Why edges never cross a node: dagre puts every node in a rank row and passes every edge through one dummy
 * point per rank it spans, ordered and spaced among that rank's nodes. The route leaves its source
 * vertically past the edge of the source's row, crosses each row it passes straight down (or up) at its
 * dummy point, which dagre keeps clear of the row's nodes, and bends only in the gaps between rows, where
 * there are no nodes. Edge labels sit on the label point dagre reserved for them.
 *
 * Defines `layOutTopology(cy, dagre)` in the page script's scope. No `${`, backticks or closing script tags.
 */
export const TOPOLOGY_LAYOUT_SCRIPT = String.raw`
function layOutTopology(cy, dagre) {
  var graph = new dagre.graphlib.Graph({ multigraph: true });
  graph.setGraph({ rankdir: 'TB', nodesep: 24, edgesep: 12, ranksep: 56, marginx: 24, marginy: 24 });
  graph.setDefaultEdgeLabel(function () { return {}; });
  cy.nodes().forEach(function (node) {
    graph.setNode(node.id(), { width: node.outerWidth(), height: node.outerHeight() });
  });
  cy.edges().forEach(function (edge) {
    graph.setEdge(edge.source().id(), edge.target().id(),
      { width: edge.data('labelWidth'), height: edge.data('labelHeight'), labelpos: 'c' }, edge.id());
  });
  dagre.layout(graph);
  cy.nodes().forEach(function (node) {
    var placed = graph.node(node.id());
    node.position({ x: placed.x, y: placed.y });
  });
  var rows = rankRows(cy);
  cy.edges().forEach(function (edge) {
    var laid = graph.edge({ v: edge.source().id(), w: edge.target().id(), name: edge.id() });
    drawRoute(edge, routeOf(edge, laid, rows));
  });
}

/** Each rank's row: its centre y and half the height of its tallest node. */
function rankRows(cy) {
  var byY = new Map();
  cy.nodes().forEach(function (node) {
    var y = Math.round(node.position('y'));
    byY.set(y, Math.max(byY.get(y) || 0, node.outerHeight() / 2));
  });
  return Array.from(byY, function (entry) { return { y: entry[0], half: entry[1] }; });
}

function rowAt(rows, y) {
  for (var i = 0; i < rows.length; i++) if (Math.abs(rows[i].y - y) < 1) return rows[i];
  return undefined;
}

/** Clear of the node's border, so that cytoscape finds where the route meets it. */
var PORT_GAP = 3;

/** Where a route leaves or enters a node: just past its row, within the node's width, towards the next point. */
function port(node, towards, side, rows) {
  var at = node.position();
  var row = rowAt(rows, at.y);
  var half = (row ? row.half : node.outerHeight() / 2) + PORT_GAP;
  var reach = Math.max(0, node.outerWidth() / 2 - 10);
  return { x: Math.min(at.x + reach, Math.max(at.x - reach, towards.x)), y: at.y + side * half };
}

/**
 * The route's bend points (cytoscape adds the two ends on the node borders), with the index of the point
 * its label sits on, or -1.
 */
function routeOf(edge, laid, rows) {
  var from = edge.source().position();
  var to = edge.target().position();
  var dir = to.y >= from.y ? 1 : -1;
  var inner = laid.points.slice(1, -1);
  var points = [port(edge.source(), inner[0] || to, dir, rows)];
  var label = -1;
  inner.forEach(function (p) {
    var isLabel = laid.width > 0 && Math.abs(p.x - laid.x) < 0.5 && Math.abs(p.y - laid.y) < 0.5;
    var row = rowAt(rows, p.y);
    if (row) points.push({ x: p.x, y: p.y - dir * (row.half + PORT_GAP) });
    if (isLabel) label = points.length;
    points.push({ x: p.x, y: p.y });
    if (row) points.push({ x: p.x, y: p.y + dir * (row.half + PORT_GAP) });
  });
  points.push(port(edge.target(), inner[inner.length - 1] || from, -dir, rows));
  return { points: points, label: label };
}
/**
 * cytoscape puts an edge's label on its middle bend point, so the route gets extra points (on its straight
 * stretches, changing nothing drawn) until the label point is the middle one.
 */
function centreLabel(route) {
  var points = route.points.slice();
  var label = route.label;
  if (label < 0) return points;
  while (label < points.length - 1 - label) {
    points.splice(1, 0, midpoint(points[0], points[1]));
    label++;
  }
  while (points.length - 1 - label < label) {
    var n = points.length;
    points.splice(n - 1, 0, midpoint(points[n - 2], points[n - 1]));
  }
  return points;
}

function midpoint(a, b) { return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }; }

/** Bend points as cytoscape reads them: a weight along the line between the two node centres and a distance off it. */
function drawRoute(edge, route) {
  var s = edge.source().position();
  var t = edge.target().position();
  var dx = t.x - s.x;
  var dy = t.y - s.y;
  var length2 = dx * dx + dy * dy;
  var length = Math.sqrt(length2);
  var points = centreLabel(route);
  edge.style({
    'segment-weights': points.map(function (p) { return ((p.x - s.x) * dx + (p.y - s.y) * dy) / length2; }),
    'segment-distances': points.map(function (p) { return ((p.y - s.y) * dx - (p.x - s.x) * dy) / length; })
  });
}
`;
