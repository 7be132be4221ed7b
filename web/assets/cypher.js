// Cypher console: a textarea over a highlighted copy of its text, results
// as a table and, when they hold nodes, as a graph.
'use strict';
(function () {
  const { el, api, palette } = window.kg;
  const ta = document.getElementById('query');
  const pre = document.getElementById('highlight');
  const planBox = document.getElementById('result-plan');
  const keywords = new Set(('MATCH OPTIONAL WHERE RETURN WITH UNWIND ORDER BY LIMIT SKIP AS AND OR XOR NOT IN IS NULL ' +
    'DISTINCT CASE WHEN THEN ELSE END UNION ALL EXISTS CONTAINS STARTS ENDS TRUE FALSE DESC ASC DESCENDING ASCENDING ' +
    'CREATE MERGE SET DELETE DETACH REMOVE CALL YIELD FOREACH LOAD CSV COUNT COLLECT EXPLAIN PROFILE').split(' '));
  const tokenRE = /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|('(?:[^'\\]|\\.)*'?|"(?:[^"\\]|\\.)*"?)|(`[^`]*`?)|(\$[A-Za-z_][A-Za-z0-9_]*)|(:[A-Za-z_][A-Za-z0-9_]*)|(\b\d+(?:\.\d+)?\b)|([A-Za-z_][A-Za-z0-9_]*)|([\s\S])/g;

  function paint() {
    const text = ta.value;
    const out = [];
    let m;
    tokenRE.lastIndex = 0;
    while ((m = tokenRE.exec(text)) !== null) {
      let cls = '';
      if (m[1]) cls = 'tk-comment';
      else if (m[2]) cls = 'tk-string';
      else if (m[3]) cls = 'tk-ident';
      else if (m[4]) cls = 'tk-param';
      else if (m[5]) cls = 'tk-label';
      else if (m[6]) cls = 'tk-number';
      else if (m[7] && keywords.has(m[7].toUpperCase())) cls = 'tk-keyword';
      out.push(cls ? el('span', { class: cls, text: m[0] }) : document.createTextNode(m[0]));
    }
    out.push(document.createTextNode('\n'));
    pre.replaceChildren(...out);
    pre.scrollTop = ta.scrollTop;
    pre.scrollLeft = ta.scrollLeft;
  }
  ta.addEventListener('input', paint);
  ta.addEventListener('scroll', () => { pre.scrollTop = ta.scrollTop; pre.scrollLeft = ta.scrollLeft; });
  paint();

  const status = document.getElementById('query-status');
  const errBox = document.getElementById('query-error');
  const table = document.getElementById('result-table');
  const graphBox = document.getElementById('result-graph');

  // A result cell: a node as (:Label {key: value…}), a relationship as
  // [:TYPE {…}], a path as its chain, a map as key: value lines, a list
  // inline; strings over LONG characters are cut, the whole on a click;
  // invisible characters (the key separator U+001F of stored ids) marked.
  const LONG = 160;
  function longText(s) {
    if (s === '') return el('span', { class: 'muted' }, '""');
    const cs = [...s];
    if (cs.length <= LONG) return el('span', { class: 'c-str' }, s);
    return el('details', { class: 'long' }, el('summary', { title: 'show all ' + cs.length + ' characters' }, cs.slice(0, LONG).join('') + '…'),
      el('div', { class: 'long-full' }, s));
  }
  function props(p, depth) {
    const keys = Object.keys(p || {}).sort();
    return keys.map((k) => el('div', { class: 'c-prop' }, el('span', { class: 'c-key' }, k), ': ', cell(p[k], depth + 1)));
  }
  const head = (n) => '(' + n.labels.map((l) => ':' + l).join('') + ')';
  function cell(v, depth) {
    depth = depth || 0;
    if (v === null || v === undefined) return el('span', { class: 'muted' }, 'null');
    if (typeof v === 'string') return longText(v);
    if (typeof v !== 'object') return el('span', { class: 'c-num' }, String(v));
    if (depth > 4) return longText(JSON.stringify(v));
    if (Array.isArray(v)) {
      if (v.every((x) => x === null || typeof x !== 'object')) {
        return el('span', { class: 'c-list' }, '[', v.map((x, i) => [i ? ', ' : '', cell(x, depth + 1)]), ']');
      }
      return el('div', { class: 'c-list' }, '[', v.map((x) => el('div', { class: 'c-props' }, cell(x, depth + 1))), ']');
    }
    const p = v.properties || {};
    const open = Object.keys(p).length > 0;
    if (v._kind === 'node') {
      return el('div', { class: 'c-node' }, '(' + v.labels.map((l) => ':' + l).join('') + (open ? ' {' : ')'),
        open ? [el('div', { class: 'c-props' }, props(p, depth)), '})'] : null);
    }
    if (v._kind === 'relationship') {
      return el('div', { class: 'c-rel' }, '[:' + v.type + (open ? ' {' : ']'),
        open ? [el('div', { class: 'c-props' }, props(p, depth)), '}]'] : null);
    }
    if (v._kind === 'path') {
      const parts = [];
      v.nodes.forEach((n, i) => {
        if (i > 0) {
          const r = v.relationships[i - 1];
          parts.push(r.start === n.id ? '<-[:' + r.type + ']-' : '-[:' + r.type + ']->');
        }
        parts.push(head(n));
      });
      return el('div', { class: 'c-path' }, el('div', {}, parts.join('')),
        el('details', { class: 'long' }, el('summary', {}, v.nodes.length + ' nodes, ' + v.relationships.length + ' relationships'),
          v.nodes.map((n) => cell(n, depth + 1)), v.relationships.map((r) => cell(r, depth + 1))));
    }
    return el('div', { class: 'c-map' }, props(v, depth));
  }

  function nodeLabel(n) {
    const p = n.properties || {};
    for (const k of ['label', 'name', 'id', 'key']) if (typeof p[k] === 'string' || typeof p[k] === 'number') return kg.visible(p[k]);
    return n.labels.join(':');
  }

  function draw(res) {
    if (window.cyConsole) { window.cyConsole.destroy(); window.cyConsole = null; }
    if (!res.nodes.length || !window.cytoscape) { graphBox.hidden = true; return; }
    graphBox.hidden = false;
    const ids = new Set(res.nodes.map((n) => n.id));
    const labels = [...new Set(res.nodes.map((n) => n.labels.join(':')))];
    const elements = res.nodes.map((n) => ({ group: 'nodes', data: { id: n.id, label: nodeLabel(n),
      color: (n.properties && n.properties.side === 'in') ? '#2b6cb0' : (n.properties && n.properties.side === 'ctx') ? '#dd6b20' : palette[labels.indexOf(n.labels.join(':')) % palette.length] } }));
    for (const r of res.relationships) {
      if (ids.has(r.start) && ids.has(r.end)) {
        const w = r.properties && typeof r.properties.weight === 'number' ? ' ' + r.properties.weight.toFixed(2) : '';
        elements.push({ group: 'edges', data: { id: r.id, source: r.start, target: r.end, label: r.type + w } });
      }
    }
    window.cyConsole = cytoscape({
      container: graphBox, elements,
      layout: { name: 'cose', animate: false },
      style: [
        { selector: 'node', style: { label: 'data(label)', 'background-color': 'data(color)', 'font-size': 10, width: 18, height: 18 } },
        { selector: 'edge', style: { label: 'data(label)', 'font-size': 8, 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', width: 1.2, 'line-color': '#a0aec0', 'target-arrow-color': '#a0aec0' } },
      ],
    });
  }

  async function run() {
    errBox.hidden = true;
    status.textContent = 'running…';
    try {
      const res = await api('/api/cypher', { method: 'POST', body: { query: ta.value } });
      table.tHead.replaceChildren(el('tr', {}, res.columns.map((c) => el('th', {}, c))));
      table.tBodies[0].replaceChildren(...res.rows.map((row) => el('tr', {}, row.map((v) => el('td', {}, cell(v))))));
      const cut = res.truncated ? (res.truncated_by === 'bytes' ? ' (cut at the size cap)' : ' (cut at the row cap)') : '';
      status.textContent = res.rows.length + ' row' + (res.rows.length === 1 ? '' : 's') + cut + ' in ' + res.ms + ' ms';
      planBox.textContent = res.plan || '';
      planBox.hidden = !res.plan;
      draw(res);
    } catch (e) {
      status.textContent = '';
      errBox.textContent = kg.visible(e.message);
      errBox.hidden = false;
      table.tHead.replaceChildren();
      table.tBodies[0].replaceChildren();
      planBox.hidden = true;
      draw({ nodes: [], relationships: [] });
    }
  }
  document.getElementById('run-query').addEventListener('click', run);
  ta.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); run(); } });
})();
