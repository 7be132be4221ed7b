// Graph view of one pair graph (Cytoscape.js): input and context sides in
// two colours, SIMILAR edges labelled with their weight, communities as
// colours on demand, and a click on an input entity highlights its cheapest
// path to the context side with its cost against delta.
'use strict';
(function () {
  const { el, fmt, palette } = window.kg;
  const g = kg.data('graph-data');
  if (!g || !window.cytoscape) return;
  const paths = new Map(g.paths.map((p) => [p.node, p]));
  // A canvas label shows invisible characters as markers and is cut at 80
  // characters (the entity list and the path panel show it whole).
  const short = (s) => { const cs = [...s]; return cs.length > 80 ? cs.slice(0, 79).join('') + '…' : s; };
  const elements = [];
  for (const n of g.nodes) {
    elements.push({
      group: 'nodes',
      data: { id: 'n' + n.id, nid: n.id, label: short(kg.visible(n.label)), kind: n.kind, side: n.side, community: n.community,
        ccolor: n.community === null ? '#cccccc' : palette[n.community % palette.length] },
      classes: n.kind + ' ' + n.side + (n.source === 'rules' ? ' rules' : ''),
    });
  }
  g.edges.forEach((e, i) => {
    elements.push({
      group: 'edges',
      data: { id: 'e' + i, source: 'n' + e.from, target: 'n' + e.to, type: e.type, weight: e.weight, cost: e.cost,
        label: e.type === 'SIMILAR' ? e.weight.toFixed(2) : '' },
      classes: e.type === 'SIMILAR' ? 'sim' : 'rel',
    });
  });
  const cy = cytoscape({
    container: document.getElementById('cy'),
    elements,
    wheelSensitivity: 0.3,
    layout: { name: 'cose', animate: false, randomize: true, nodeRepulsion: () => 9000, idealEdgeLength: () => 70, padding: 20 },
    style: [
      { selector: 'node', style: { label: 'data(label)', 'font-size': 11, 'text-valign': 'bottom', 'text-margin-y': 3, 'text-wrap': 'wrap', 'text-max-width': 120, width: 22, height: 22, 'border-width': 1, 'border-color': '#333' } },
      { selector: 'node.entity.in', style: { 'background-color': '#2b6cb0' } },
      { selector: 'node.entity.ctx', style: { 'background-color': '#dd6b20' } },
      { selector: 'node.relation', style: { shape: 'round-rectangle', width: 14, height: 10, 'font-size': 9, color: '#555', 'background-color': '#e2e8f0' } },
      { selector: 'node.relation.in', style: { 'border-color': '#2b6cb0' } },
      { selector: 'node.relation.ctx', style: { 'border-color': '#dd6b20' } },
      { selector: 'node.relation.rules', style: { 'border-style': 'dashed', 'background-color': '#f7fafc' } },
      { selector: 'edge', style: { width: 1.5, 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', 'arrow-scale': 0.8, 'line-color': '#a0aec0', 'target-arrow-color': '#a0aec0' } },
      { selector: 'edge.sim', style: { 'line-style': 'dashed', 'line-color': '#805ad5', 'target-arrow-color': '#805ad5', width: 'mapData(weight, 0.5, 1, 1, 4)', label: 'data(label)', 'font-size': 10, color: '#553c9a', 'text-background-color': '#fff', 'text-background-opacity': 0.8 } },
      { selector: '.faded', style: { opacity: 0.2 } },
      { selector: 'node.path', style: { 'border-width': 4, 'border-color': '#e53e3e', opacity: 1 } },
      { selector: 'edge.path', style: { 'line-color': '#e53e3e', 'target-arrow-color': '#e53e3e', width: 4, opacity: 1, 'z-index': 10 } },
      { selector: 'node.start', style: { width: 30, height: 30 } },
    ],
  });
  window.cy = cy;

  const box = document.getElementById('cy');
  document.getElementById('communities').addEventListener('change', (ev) => {
    box.classList.toggle('bycommunity', ev.target.checked);
    cy.batch(() => {
      cy.nodes().forEach((n) => n.style('background-color', ev.target.checked ? n.data('ccolor') : ''));
    });
  });

  // Triplets read by rule (extraction.method rules or both) can be hidden:
  // their relation nodes, and the entities no other triplet uses.
  const ruleToggle = document.getElementById('rule-triplets');
  const ruleRels = cy.nodes('node.relation.rules');
  if (ruleToggle && ruleRels.length === 0) ruleToggle.closest('label').hidden = true;
  ruleToggle?.addEventListener('change', (ev) => {
    const only = cy.nodes('node.entity, node.slot').filter((n) => {
      const rels = n.neighborhood('node.relation');
      return rels.length > 0 && rels.every((r) => r.hasClass('rules'));
    });
    cy.batch(() => ruleRels.union(only).style('display', ev.target.checked ? 'element' : 'none'));
    cy.fit(cy.elements(':visible'), 20);
  });

  const info = document.getElementById('path-info');
  const list = document.getElementById('entities');
  function highlight(nid) {
    const p = paths.get(nid);
    cy.elements().removeClass('path start faded');
    for (const li of list.children) li.classList.toggle('on', li.dataset.nid === String(nid));
    if (!p) { info.replaceChildren(); return; }
    const ids = p.path_ids || [];
    cy.elements().addClass('faded');
    const start = cy.getElementById('n' + nid);
    start.removeClass('faded').addClass('path start');
    for (let i = 0; i < ids.length; i++) {
      cy.getElementById('n' + ids[i]).removeClass('faded').addClass('path');
      if (i > 0) {
        cy.edges().filter((e) => e.data('source') === 'n' + ids[i - 1] && e.data('target') === 'n' + ids[i])
          .removeClass('faded').addClass('path');
      }
    }
    const verdict = p.cost === null ? 'no path to the context side: fails'
      : 'cost ' + fmt(p.cost) + (p.passed ? ' ≤ ' : ' > ') + 'δ ' + fmt(g.delta) + ': ' + (p.passed ? 'passes' : 'fails');
    info.replaceChildren(
      el('h3', {}, p.label),
      el('p', { class: 'verdict ' + (p.passed ? 'pass' : 'fail'), id: 'path-verdict' }, verdict),
      el('p', { id: 'path-labels' }, (p.path || []).join(' → ')));
  }
  for (const p of g.paths) {
    list.appendChild(el('li', { 'data-nid': String(p.node) },
      el('button', { type: 'button', class: 'entity', onclick: () => highlight(p.node) }, p.label),
      ' ', el('span', { class: 'verdict ' + (p.passed ? 'pass' : 'fail') }, p.cost === null ? '∞' : fmt(p.cost))));
  }
  cy.on('tap', 'node.entity.in', (ev) => highlight(ev.target.data('nid')));
  cy.on('tap', (ev) => { if (ev.target === cy) highlight(-1); });
  window.kgGraph = { highlight };
})();
