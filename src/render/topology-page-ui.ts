/**
 * The topology page's behaviour, as browser script text: draws the graph (topology-page-look.ts), lays it
 * out (topology-page-layout.ts), and wires the legend's filters by link kind and confidence, the search box
 * and the details panel. Text reaches the DOM only through `textContent`.
 *
 * Defines `showTopology(data, cytoscape, dagre)`. No `${`, backticks or closing script tags.
 */
export const TOPOLOGY_UI_SCRIPT = String.raw`
function showTopology(data, cytoscape, dagre) {
  var cy = cytoscape({ container: document.getElementById('graph'), elements: elementsOf(data), style: graphStyle(),
    layout: { name: 'preset' }, autoungrabify: true, boxSelectionEnabled: false, minZoom: 0.05, maxZoom: 4 });
  layOutTopology(cy, dagre);
  cy.fit(undefined, 30);
  // A small graph is shown at about its natural size rather than blown up to fill the screen.
  if (cy.zoom() > 1.25) { cy.zoom(1.25); cy.center(); }
  document.getElementById('summary').textContent = summaryOf(data);
  var details = detailsPanel(cy, data);
  wireLegend(cy);
  wireSearch(cy, details.focus);
  window.meshlensGraph = cy;
  document.body.setAttribute('data-ready', 'true');
}

function countOf(items, kind) { return items.filter(function (i) { return i.kind === kind; }).length; }
function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many); }

function summaryOf(data) {
  var parts = [plural(countOf(data.nodes, 'service'), 'service', 'services')];
  var contracts = countOf(data.nodes, 'contracts');
  if (contracts > 0) parts.push(plural(contracts, 'contracts folder', 'contracts folders'));
  parts.push(plural(countOf(data.nodes, 'topic'), 'topic', 'topics'), plural(data.links.length, 'link', 'links'));
  var text = parts.join(', ') + '.';
  if (data.hidden.services.length > 0)
    text += ' ' + plural(data.hidden.services.length, 'less-connected service is', 'less-connected services are') + ' folded into one node.';
  if (data.hidden.ambiguousEdges > 0)
    text += ' ' + plural(data.hidden.ambiguousEdges, 'ambiguous call', 'ambiguous calls') + ' spanning several services not drawn.';
  return text;
}

/** The legend: link kinds and confidences (each a filter) and node kinds, listing only what the graph has. */
function wireLegend(cy) {
  var off = { kind: {}, confidence: {} };
  function apply() {
    cy.batch(function () {
      cy.edges().forEach(function (e) {
        e.toggleClass('filtered', off.kind[e.data('kind')] === true || off.confidence[e.data('confidence')] === true);
      });
    });
  }
  function present(collection, field, order) {
    var counts = {};
    collection.forEach(function (e) { counts[e.data(field)] = (counts[e.data(field)] || 0) + 1; });
    return Object.keys(order).concat(Object.keys(counts).filter(function (k) { return !order[k]; }))
      .filter(function (k) { return counts[k]; }).map(function (k) { return [k, counts[k]]; });
  }
  present(cy.edges(), 'kind', LINK_KINDS).forEach(function (entry) {
    var kind = kindOf(entry[0]);
    legendRow(document.getElementById('kinds'), lineSwatch(kind.color, ''), kind.name, entry[1],
      function (on) { off.kind[entry[0]] = !on; apply(); });
  });
  present(cy.edges(), 'confidence', CONFIDENCES).forEach(function (entry) {
    var confidence = CONFIDENCES[entry[0]] || { name: entry[0], dash: '2 2' };
    legendRow(document.getElementById('confidences'), lineSwatch('#4a5568', confidence.dash), confidence.name, entry[1],
      function (on) { off.confidence[entry[0]] = !on; apply(); });
  });
  present(cy.nodes(), 'kind', NODE_KINDS).forEach(function (entry) {
    if (NODE_KINDS[entry[0]])
      legendRow(document.getElementById('node-kinds'), nodeSwatch(entry[0]), NODE_KINDS[entry[0]].name, entry[1]);
  });
}

/** Typing highlights the matching nodes; Enter, or a name picked from the list, focuses the first. */
function wireSearch(cy, focus) {
  var input = document.getElementById('search');
  var status = document.getElementById('search-status');
  var names = document.getElementById('names');
  cy.nodes().forEach(function (n) { var option = el('option'); option.value = n.data('name'); names.appendChild(option); });
  function highlight() {
    cy.elements().removeClass('faded match');
    var query = input.value.trim().toLowerCase();
    if (!query) { status.textContent = ''; return cy.collection(); }
    var found = cy.nodes().filter(function (n) { return n.data('label').toLowerCase().indexOf(query) >= 0; });
    status.textContent = found.length === 0 ? 'No node matches.' : plural(found.length, 'match', 'matches') + '; Enter focuses the first.';
    if (found.length > 0) { cy.elements().not(found).addClass('faded'); found.addClass('match'); }
    return found;
  }
  input.addEventListener('input', function () {
    var found = highlight();
    var exact = found.filter(function (n) { return n.data('name') === input.value; });
    if (exact.length > 0) focus(exact[0]);
  });
  input.addEventListener('keydown', function (event) {
    if (event.key === 'Enter') { var found = highlight(); if (found.length > 0) focus(found[0]); }
    if (event.key === 'Escape') { input.value = ''; highlight(); }
  });
}

/** The panel's details: a clicked node's contracts (workspace-relative path:line) and links, or a clicked link. */
function detailsPanel(cy, data) {
  var title = document.getElementById('title');
  var box = document.getElementById('details');
  var hint = box.textContent;
  function reset() {
    title.textContent = data.title;
    box.textContent = '';
    box.appendChild(el('p', hint, 'muted'));
    cy.elements().removeClass('faded');
  }
  function list(heading, items) {
    if (items.length === 0) return;
    box.appendChild(el('h3', heading + ' (' + items.length + ')'));
    var ul = el('ul');
    items.forEach(function (item) { ul.appendChild(item); });
    box.appendChild(ul);
  }
  function linkItem(edge, arrow, other) {
    var kind = kindOf(edge.data('kind'));
    var li = el('li', arrow + ' ' + other.data('label') + ' \u2014 ' + kind.name + (edge.data('weight') > 1 ? ' \u00d7' + edge.data('weight') : '') +
      (edge.data('confidence') === 'exact' ? '' : ' (' + edge.data('confidence') + ')'));
    return li;
  }
  function showNode(node) {
    box.textContent = '';
    title.textContent = node.data('label');
    box.appendChild(el('p', describe(node, data), 'muted'));
    list('Contracts', node.data('contracts').map(function (c) {
      var li = el('li');
      li.appendChild(breakable(c.kind + ' ' + c.name));
      if (c.file) {
        var code = el('code');
        code.appendChild(breakable(c.file + ':' + c.line));
        li.appendChild(document.createElement('br'));
        li.appendChild(code);
      }
      return li;
    }));
    if (node.data('kind') === 'folded')
      list('Services', data.hidden.services.map(function (s) { return el('li', s); }));
    list('Links out', node.outgoers('edge').map(function (e) { return linkItem(e, '\u2192', e.target()); }));
    list('Links in', node.incomers('edge').map(function (e) { return linkItem(e, '\u2190', e.source()); }));
    cy.elements().addClass('faded');
    node.closedNeighborhood().removeClass('faded');
  }
  function showEdge(edge) {
    box.textContent = '';
    var kind = kindOf(edge.data('kind'));
    title.textContent = edge.source().data('label') + ' \u2192 ' + edge.target().data('label');
    box.appendChild(el('p', kind.name + (edge.data('weight') > 1 ? ', ' + edge.data('weight') + ' contracts or call sites' : '') +
      '; confidence ' + edge.data('confidence') + ' (the weakest of the folded edges).'));
    cy.elements().addClass('faded');
    edge.union(edge.connectedNodes()).removeClass('faded');
  }
  function focus(node) {
    cy.elements().unselect();
    node.select();
    showNode(node);
    node.removeClass('faded').addClass('match');
    cy.stop();
    cy.animate({ center: { eles: node }, zoom: Math.max(cy.zoom(), 1.1) }, { duration: 200 });
  }
  cy.on('tap', 'node', function (event) { showNode(event.target); });
  cy.on('tap', 'edge', function (event) { showEdge(event.target); });
  cy.on('tap', function (event) { if (event.target === cy) reset(); });
  reset();
  return { focus: focus };
}

function describe(node, data) {
  var kind = node.data('kind');
  if (kind === 'service') return 'Service, root ' + node.data('root') + '.';
  if (kind === 'contracts')
    return 'Contracts folder ' + node.data('root') + ': declarations, no running code. A gRPC link ending here is a call whose implementation is not in the index.';
  if (kind === 'topic') return 'Topic: producers link to it, consumers from it.';
  return plural(data.hidden.services.length, 'service', 'services') + ' left out of the drawing (raise max_services or zoom on a service).';
}
`;
