// Run page triage: per pair the samples that need attention, ranked by the
// pair's headline metric (its first column: score, or slot_coverage for a
// question pair) against its pass mark, failing first, then the lowest
// headline. The other KG scores are diagnostics: marked pass (✓) or fail
// (✗) against their thresholds, but they neither fail a row nor rank it.
// The first failing rows show their unsupported claims (verdict, score,
// the model's P, conflict, evidence sentence), failing facts or nearest
// context match. Filters by pair, system, metric range and null reason; a
// column header sorts its pair's table (aria-sort and an arrow).
// Everything goes in as text (kg.el), never as HTML.
'use strict';
(function () {
  const { el, fmt, api, path } = window.kg;
  const section = document.getElementById('triage');
  if (!section) return;
  const run = section.dataset.run;
  const form = document.getElementById('triage-filter');
  const box = document.getElementById('triage-pairs');
  const info = document.getElementById('triage-info');
  const glossary = document.getElementById('triage-glossary');
  const limit = 5;
  // Per pair: the column sorted on (null: worst first) and the rows shown.
  const state = {};
  let data = null;
  let seq = 0;

  function filterQuery() {
    const f = new FormData(form);
    const q = new URLSearchParams();
    for (const k of ['metric', 'min', 'max', 'reason']) {
      const v = f.get(k);
      if (v !== null && v !== '') q.set(k, v);
    }
    // The "any" system option has the value "" like a system without a
    // name: only the chosen option counts.
    if (form.elements.system.selectedIndex > 0) q.set('system', form.elements.system.value);
    if (!f.get('metric')) { q.delete('min'); q.delete('max'); }
    return q;
  }

  // mark2 shows a pass mark rounded to two places (the calibrated ones
  // carry every digit of their fit).
  function mark2(v) {
    return typeof v === 'number' ? String(Math.round(v * 100) / 100) : String(v);
  }

  // glossOf says what a column means; with a pair, its headline's pass
  // mark is the pair's own (the calibrated one for score).
  function glossOf(metric, p) {
    const g = data && data.columns.find((c) => c.metric === metric);
    if (!g) return metric;
    const th = data.thresholds.find((t) => t.metric === metric);
    const value = p && p.headline === metric ? p.pass_mark : th && th.value;
    const lower = th && th.direction.startsWith('lower');
    let mark = value === undefined ? '' : value === null ? ' · no fitted pass mark: shown, never passes or fails' : (lower ? ' · passes at ≤ ' : ' · passes at ≥ ') + mark2(value);
    if (p) mark += p.headline === metric ? ' · headline: decides failing' : ' · diagnostic: not counted in failing';
    else if (metric === 'score') mark += ' (calibrated; a pair whose claims the model checked has its own mark)';
    const params = metric === 'multihop' ? ' · τ ' + data.tau + ', δ ' + data.delta : ' · τ ' + data.tau;
    return metric + ': ' + g.meaning + ' · ' + g.direction + ' · ' + g.lo + ' to ' + g.hi + mark + params;
  }

  function drawGlossary() {
    glossary.replaceChildren(...data.columns.flatMap((c) => [
      el('dt', { id: 'gloss-' + c.metric }, c.metric),
      el('dd', {}, glossOf(c.metric).slice(c.metric.length + 2)),
    ]));
  }

  function cell(c, i, p) {
    const role = i === 0 ? ' headline' : ' diag';
    if (c.value === null) {
      return el('td', { class: 'tri null' + role, title: c.reason || 'null' }, el('span', { 'aria-hidden': 'true' }, '– '), 'null');
    }
    const pass = c.pass;
    return el('td', { class: 'n tri ' + (pass ? 'pass' : 'fail') + role, title: (pass ? 'pass: ' : 'fail: ') + glossOf(c.metric, p) },
      el('span', { class: 'mark' }, pass ? '✓' : '✗'), ' ', fmt(c.value), el('span', { class: 'sr' }, pass ? ' pass' : ' fail'));
  }

  function why(row, pair) {
    const lines = [];
    for (const c of row.claims || []) {
      const parts = [el('span', { class: 'badge ' + c.verdict }, c.verdict + ' · ' + fmt(c.score)), ' ', el('bdi', { class: 'claim-text' }, c.text)];
      if (c.p_supported !== undefined && c.p_supported !== null) parts.push(' · model P(supported) ' + fmt(c.p_supported));
      if (c.conflict) parts.push(' · ', el('span', { class: 'claim-conflict' }, 'conflict: ', el('bdi', {}, c.conflict)));
      if (c.evidence) {
        parts.push(' · ', el('q', {}, el('bdi', {}, c.evidence)));
        if (c.why && c.why.length) parts.push(' ', el('span', { class: 'muted' }, '(', el('bdi', {}, c.why.join('; ')), ')'));
      }
      lines.push(el('li', { 'data-verdict': c.verdict, class: 'claim-line' }, ...parts));
    }
    for (const l of row.why || []) {
      const cls = l.conflict ? 'conflict' : (l.text || l.verdict).replace(/ .*/, '');
      const ev = [];
      if (l.evidence) ev.push(' · evidence ', el('bdi', {}, l.evidence));
      if (l.sentence) ev.push(' · ', el('span', { class: 'muted' }, l.source ? l.source + ': ' : ''), el('q', {}, el('bdi', {}, l.sentence)));
      if (l.model) ev.push(' · model: ' + l.model + (l.model_reason ? ' (' + l.model_reason + ')' : ''));
      lines.push(el('li', { 'data-verdict': cls }, el('span', { class: 'badge ' + cls }, l.verdict.replaceAll('_', ' ') + (l.conflict ? ' · conflict' : '')), ' ',
        el('bdi', {}, l.triplet), ...ev));
    }
    for (const n of row.nearest || []) {
      const parts = [el('bdi', {}, n.entity), ' → '];
      if (n.match) parts.push('nearest ', el('bdi', {}, n.match));
      else parts.push('no context entity reachable');
      if (n.cosine !== undefined && n.cosine !== null) parts.push(' · cosine ' + fmt(n.cosine));
      if (n.cost !== null && n.cost !== undefined) parts.push(' · cost ' + fmt(n.cost) + ' > δ ' + data.delta);
      lines.push(el('li', { 'data-verdict': 'no_path' }, el('span', { class: 'badge not_found' }, 'no path'), ' ', ...parts));
    }
    const link = el('a', { href: path('runs', run, 'samples', row.id) + (row.claims && row.claims.length ? '#claims' : ''), class: 'why-link' },
      lines.length ? 'all of the why' : (row.failing ? 'why →' : 'open'));
    if (row.why_more) lines.push(el('li', { class: 'muted' }, '+' + row.why_more + ' more'));
    if (!lines.length) return el('td', { class: 'tri-why' }, row.reason ? el('span', { class: 'muted' }, 'null: ' + row.reason + ' · ') : null, link);
    return el('td', { class: 'tri-why' }, el('ul', { class: 'why-lines' }, ...lines), link);
  }

  function header(p) {
    const st = state[p.pair] || {};
    const sortable = (label, metric, title, cls) => {
      const on = metric === null ? !st.sort : st.sort === metric;
      const dir = metric === null ? 'descending' : st.desc ? 'descending' : 'ascending';
      const attrs = { scope: 'col', 'aria-sort': on ? dir : 'none', 'data-sort': metric === null ? 'worst' : metric, class: cls };
      if (metric) { attrs.title = title; attrs['aria-describedby'] = 'gloss-' + metric; } else attrs.title = 'worst first: a failing ' + p.headline + ', then the lowest';
      return el('th', attrs, el('button', { type: 'button', class: 'sort', 'data-pair': p.pair, 'data-metric': metric || '' },
        label, el('span', { class: 'arrow', 'aria-hidden': 'true' }, on ? (dir === 'descending' ? ' ▼' : ' ▲') : ' ↕')));
    };
    return el('thead', {}, el('tr', {},
      el('th', { scope: 'col' }, 'id'), el('th', { scope: 'col' }, 'system'),
      sortable('verdict', null, ''),
      ...p.columns.map((m, i) => sortable(m, m, glossOf(m, p), i === 0 ? 'headline' : 'diag')),
      el('th', { scope: 'col' }, p.headline === 'score' ? 'unsupported claims · evidence' : 'failing facts · evidence / nearest context match')));
  }

  function pairBlock(p) {
    const rows = p.rows.map((r) => el('tr', { 'data-id': r.id, 'data-system': r.system, class: r.failing ? 'failing' : '' },
      el('td', {}, el('a', { href: path('runs', run, 'samples', r.id), class: 'sample-link' }, el('bdi', {}, r.id))),
      el('td', {}, el('bdi', {}, r.system || '')),
      el('td', { class: 'n' }, r.failing ? el('span', { class: 'tri-count fail' }, '✗ fails')
        : r.cells.length && r.cells[0].value === null ? el('span', { class: 'tri-count null' }, '– null')
          : p.pass_mark === null ? el('span', { class: 'tri-count null' }, '– no mark') : el('span', { class: 'tri-count pass' }, '✓ passes')),
      ...r.cells.map((c, i) => cell(c, i, p)),
      why(r, p)));
    const more = p.total > p.rows.length
      ? el('button', { type: 'button', class: 'more', 'data-pair': p.pair }, 'show ' + Math.min(20, p.total - p.rows.length) + ' more')
      : null;
    return el('div', { class: 'tri-pair', 'data-pair': p.pair },
      el('h3', {}, p.pair, el('span', { class: 'muted' }, ' (' + p.input + ' ↔ ' + p.context + ') · ',
        el('strong', { class: p.failing ? 'fail-count' : '' }, p.failing + ' of ' + p.total), ' failing ',
        el('span', { class: 'tri-headline' }, p.pass_mark === null ? '(' + p.headline + ': no fitted pass mark)' : '(' + p.headline + ' below ' + mark2(p.pass_mark) +
          (p.mark_spread ? '; a calibrated mark: the training datasets reach ' + mark2(p.mark_spread[0]) + '–' + mark2(p.mark_spread[1]) + ' balanced accuracy at it' : '') + ')'))),
      el('div', { class: 'scroll' }, el('table', { class: 'grid triage-table', 'data-pair': p.pair }, header(p),
        el('tbody', {}, ...(rows.length ? rows : [el('tr', {}, el('td', { colspan: String(4 + p.columns.length), class: 'muted' }, 'no sample matches'))])))),
      more);
  }

  function draw() {
    box.replaceChildren(...data.pairs.map(pairBlock));
    drawGlossary();
    const failing = data.pairs.reduce((a, p) => a + p.failing, 0);
    info.textContent = data.samples + ' samples; ' + failing + ' failing sample-pairs' + (data.query.system !== undefined ? ' of system ' + (data.query.system || '(none)') : '');
    const reason = form.elements.reason;
    if (reason.options.length === 1) for (const r of data.reasons) reason.appendChild(el('option', {}, r));
    box.dataset.query = filterQuery().toString(); // what the rows show, for tests
  }

  // load fetches every pair (or one, replacing its block) with the filter.
  async function load(onlyPair) {
    const mine = ++seq;
    const q = filterQuery();
    const pairs = onlyPair ? [onlyPair] : null;
    if (form.elements.pair.value && !onlyPair) q.set('pair', form.elements.pair.value);
    if (onlyPair) {
      q.set('pair', onlyPair);
      const st = state[onlyPair] || {};
      if (st.sort) { q.set('sort', st.sort); q.set('order', st.desc ? 'desc' : 'asc'); }
      q.set('limit', String(st.limit || limit));
    } else {
      q.set('limit', String(limit));
    }
    info.textContent = 'loading…';
    try {
      const t = await api('/api/runs/' + encodeURIComponent(run) + '/triage?' + q.toString());
      if (mine !== seq) return;
      if (pairs && data) {
        data.pairs = data.pairs.map((p) => (p.pair === onlyPair ? t.pairs[0] : p));
        data.query = t.query;
      } else {
        data = t;
      }
      draw();
    } catch (e) {
      if (mine !== seq) return;
      info.textContent = e.message;
    }
  }

  box.addEventListener('click', (ev) => {
    const b = ev.target.closest('button');
    if (!b) return;
    const pair = b.dataset.pair;
    const st = state[pair] || (state[pair] = {});
    if (b.classList.contains('sort')) {
      const m = b.dataset.metric;
      if (!m) { st.sort = null; st.desc = false; } else if (st.sort === m) st.desc = !st.desc;
      else { st.sort = m; st.desc = false; }
      load(pair);
    } else if (b.classList.contains('more')) {
      st.limit = (st.limit || limit) + 20;
      load(pair);
    }
  });
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    for (const k of Object.keys(state)) delete state[k];
    load();
  });
  form.addEventListener('change', (ev) => {
    if (ev.target.tagName === 'SELECT' && ev.target.name !== 'metric') form.requestSubmit();
  });
  form.addEventListener('reset', () => setTimeout(() => form.requestSubmit(), 0));
  window.kgTriage = { data: () => data };
  load();
})();
