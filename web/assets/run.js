// Run dashboard: score histograms (ECharts) of the KG scores and of the
// other metrics (with a family/metric picker and per-system means), sweep
// curves, and the paged, filtered sample list.
'use strict';
(function () {
  const { el, fmt, api, path, palette } = window.kg;
  const stats = kg.data('stats-data');
  const pairs = kg.data('pairs-data') || [];
  const sweep = kg.data('sweep-data');
  // Every KG metric is read per pair: the graph scores, shown in the pair
  // columns, and the verdict scores, shown in a column of their own when
  // picked; contradiction and its kin are lower-is-better.
  const kgInfo = kg.data('kg-metrics-data') || { metrics: [], graph: [], lower: [] };
  const kgMetrics = new Set(kgInfo.metrics);
  const graphMetrics = new Set(kgInfo.graph);
  const lowerIsBetter = new Set(kgInfo.lower);

  function binLabels(lo, hi, bins) {
    const w = (hi - lo) / bins;
    const d = hi - lo > 10 ? 0 : 1;
    return Array.from({ length: bins }, (_, i) => (lo + i * w).toFixed(d) + '–' + (lo + (i + 1) * w).toFixed(d));
  }
  function histogram(box, title, subtext, labels, counts, color) {
    const chart = echarts.init(box, null, { renderer: 'canvas' });
    chart.setOption({
      animation: false,
      title: { text: title, subtext, textStyle: { fontSize: 13 } },
      grid: { left: 40, right: 10, top: 55, bottom: 40 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'category', data: labels, axisLabel: { fontSize: 9, rotate: 45 } },
      yAxis: { type: 'value', minInterval: 1 },
      series: [{ type: 'bar', data: counts, itemStyle: { color } }],
    });
    return chart;
  }

  const charts = document.getElementById('histograms');
  if (stats && charts && window.echarts) {
    const labels = binLabels(0, 1, stats.bins);
    for (const h of stats.histograms) {
      const box = el('div', { class: 'chart', 'data-pair': h.pair, 'data-metric': h.metric });
      charts.appendChild(box);
      histogram(box, h.pair + ' · ' + h.metric, 'mean ' + fmt(h.mean) + ' · ' + h.nulls + ' null', labels, h.counts, '#4e79a7');
    }
  }

  // Other metrics: the picker chooses a family or one metric; the
  // histograms and the table follow, and one metric also gets a chart of
  // its per-system means and becomes the sample list's metric.
  const picker = document.getElementById('metric-picker');
  const metricCharts = document.getElementById('metric-histograms');
  const sysBox = document.getElementById('metric-systems-chart');
  const familyColor = { ts: '#59a14f', ragas: '#f28e2b', llm: '#b07aa1' };
  let sysChart = null;
  let drawn = [];
  function showMetrics() {
    if (!picker || !stats || !window.echarts) return;
    const fam = picker.elements.family.value;
    const one = picker.elements.metric.value;
    for (const opt of picker.elements.metric.querySelectorAll('optgroup')) opt.hidden = fam !== '' && opt.label !== fam;
    const chosen = stats.metrics.filter((m) => (one ? m.metric === one : fam === '' || m.family === fam));
    for (const c of drawn) c.dispose();
    drawn = [];
    metricCharts.replaceChildren();
    for (const m of chosen) {
      const box = el('div', { class: 'chart', 'data-metric': m.metric, 'data-family': m.family });
      metricCharts.appendChild(box);
      drawn.push(histogram(box, m.metric, m.family + ' · mean ' + fmt(m.mean) + ' · ' + m.scored + ' scored · ' + m.nulls + ' null',
        binLabels(m.lo, m.hi, stats.bins), m.counts, familyColor[m.family] || '#4e79a7'));
    }
    for (const tr of document.querySelectorAll('#metric-table tbody tr')) {
      tr.hidden = one ? tr.dataset.metric !== one : fam !== '' && tr.dataset.family !== fam;
    }
    document.getElementById('picker-info').textContent = chosen.length + ' of ' + stats.metrics.length + ' metrics';
    sysBox.hidden = !one;
    if (sysChart) { sysChart.dispose(); sysChart = null; }
    if (one) {
      const systems = stats.systems.filter((s) => s.scored[one]);
      sysChart = echarts.init(sysBox, null, { renderer: 'canvas' });
      sysChart.setOption({
        animation: false,
        title: { text: one + ' per system', subtext: 'mean over scored samples (n)', textStyle: { fontSize: 13 } },
        grid: { left: 50, right: 10, top: 55, bottom: 50 },
        tooltip: { trigger: 'axis', formatter: (xs) => xs.map((x) => esc(x.name) + ': ' + fmt(x.value)).join('<br>') },
        xAxis: { type: 'category', data: systems.map((s) => sysName(s.system) + ' (n=' + s.scored[one] + ')'), axisLabel: { fontSize: 10 } },
        yAxis: { type: 'value' },
        series: [{ type: 'bar', data: systems.map((s) => s.means[one]), itemStyle: { color: '#4e79a7' } }],
      });
    }
  }
  if (picker) {
    picker.addEventListener('change', (ev) => {
      if (ev.target.name === 'family') picker.elements.metric.value = '';
      showMetrics();
      const one = picker.elements.metric.value;
      if (one && form) { form.elements.metric.value = one; syncForm(); offset = 0; load(); }
    });
    picker.addEventListener('submit', (ev) => ev.preventDefault());
  }

  // Sweep curves: per pair, the chosen mean score against delta, one line
  // per tau.
  const sweepBox = document.getElementById('sweep');
  const sweepPicker = document.getElementById('sweep-picker');
  let sweepCharts = [];
  function showSweep() {
    if (!sweep || !sweepBox || !window.echarts) return;
    const metric = sweepPicker ? sweepPicker.elements.metric.value : 'multihop';
    for (const c of sweepCharts) c.dispose();
    sweepCharts = [];
    sweepBox.replaceChildren();
    for (const pair of sweep.pairs) {
      const box = el('div', { class: 'chart wide', 'data-pair': pair });
      sweepBox.appendChild(box);
      const series = sweep.taus.map((tau, i) => ({
        name: 'τ ' + tau,
        type: 'line',
        symbolSize: 7,
        connectNulls: false,
        itemStyle: { color: palette[i % palette.length] },
        data: sweep.points.filter((p) => p.pair === pair && p.tau === tau).map((p) => [p.delta, p[metric]]),
      }));
      const chart = echarts.init(box, null, { renderer: 'canvas' });
      chart.setOption({
        animation: false,
        title: { text: pair + ' · mean ' + metric, textStyle: { fontSize: 13 } },
        legend: { top: 22, type: 'scroll' },
        grid: { left: 45, right: 20, top: 60, bottom: 40 },
        tooltip: { trigger: 'axis', valueFormatter: (v) => fmt(v) },
        xAxis: { type: 'value', name: 'δ', nameLocation: 'middle', nameGap: 25, min: 'dataMin', max: 'dataMax' },
        yAxis: { type: 'value', min: 0, max: 1 },
        series,
      });
      sweepCharts.push(chart);
    }
  }
  if (sweepPicker) sweepPicker.addEventListener('change', showSweep);
  window.kgRun = { sweepCharts: () => sweepCharts };

  // Correlation heatmap, fetched after the page (it reads every sample).
  const corrSection = document.getElementById('correlation-section');
  const corrBox = document.getElementById('correlations');
  const corrPicker = document.getElementById('corr-picker');
  const corrInfo = document.getElementById('corr-info');
  let corrChart = null, corr = null;
  const esc = (x) => echarts.format.encodeHTML(String(x));
  function drawCorrelations() {
    if (!corr || !window.echarts) return;
    const coef = corrPicker.elements.coef.value;
    const vars = corr.variables;
    const n = vars.length;
    const cells = [], undefinedCells = [];
    const pairAt = new Map();
    for (const p of corr.pairs) pairAt.set(p.x + '\u001f' + p.y, p);
    // A coefficient over fewer than minN samples is mostly noise: hidden,
    // drawn as a cell of its own, and the note says why.
    const minN = Number(corrSection.dataset.minN || 10);
    const tinyCells = [];
    let tiny = 0;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const p = i === j ? null : pairAt.get(vars[Math.min(i, j)] + '\u001f' + vars[Math.max(i, j)]);
        const v = i === j ? 1 : p && p[coef];
        if (p && p.n < minN && v !== null && v !== undefined) { tinyCells.push([i, j, 0]); if (i < j) tiny++; }
        else if (v === null || v === undefined) undefinedCells.push([i, j, 0]);
        else cells.push([i, j, v]);
      }
    }
    const note = document.getElementById('corr-min-n');
    note.hidden = tiny === 0;
    note.textContent = tiny ? tiny + ' of ' + corr.pairs.length + ' correlations are hidden (hatched grey): computed over fewer than ' + minN +
      ' samples (web.min_n), where r or ρ is mostly noise.' : '';
    if (corrChart) corrChart.dispose();
    corrBox.style.height = Math.max(420, 160 + 22 * n) + 'px';
    corrChart = echarts.init(corrBox, null, { renderer: 'canvas' });
    const label = (i, j) => {
      const p = i === j ? null : pairAt.get(vars[Math.min(i, j)] + '\u001f' + vars[Math.max(i, j)]);
      const head = esc(vars[i]) + ' × ' + esc(vars[j]);
      if (i === j) return head + '<br>1';
      if (!p) return head;
      const r = p[coef], pv = coef === 'pearson_r' ? p.pearson_p : p.spearman_p;
      if (r === null) return head + '<br>not defined: ' + esc(p.reason || '') + ' (n=' + p.n + ')';
      if (p.n < minN) return head + '<br>hidden: n = ' + p.n + ' < ' + minN + ' samples (web.min_n)';
      return head + '<br>' + (coef === 'pearson_r' ? 'r' : 'ρ') + ' = ' + fmt(r) + ', p = ' + (pv === null ? 'null' : pv.toPrecision(2)) + ', n = ' + p.n;
    };
    corrChart.setOption({
      animation: false,
      tooltip: { formatter: (x) => label(x.data[0], x.data[1]) },
      grid: { left: 200, right: 90, top: 10, bottom: 160 },
      xAxis: { type: 'category', data: vars, axisLabel: { rotate: 60, fontSize: 10, interval: 0 }, splitArea: { show: true } },
      yAxis: { type: 'category', data: vars, inverse: true, axisLabel: { fontSize: 10, interval: 0 }, splitArea: { show: true } },
      visualMap: { min: -1, max: 1, seriesIndex: 0, calculable: true, orient: 'vertical', right: 10, top: 'middle',
        inRange: { color: ['#2166ac', '#f7f7f7', '#b2182b'] } },
      series: [
        { name: coef, type: 'heatmap', data: cells, label: { show: n <= 16, fontSize: 9, formatter: (x) => x.data[2].toFixed(2) } },
        { name: 'not defined', type: 'heatmap', data: undefinedCells, itemStyle: { color: '#cbd5e0' } },
        { name: 'too few samples', type: 'heatmap', data: tinyCells, itemStyle: { color: '#e2e8f0', decal: { symbol: 'rect', dashArrayX: [1, 0], dashArrayY: [2, 4], rotation: 0.8 } } },
      ],
    });
    corrInfo.textContent = n + ' variables over ' + corr.samples + ' samples' + (corr.empty.length ? '; without any value: ' + corr.empty.join(', ') : '') +
      (corr.human_error ? '; human labels left out: ' + corr.human_error : '');
  }
  async function loadCorrelations() {
    const sel = corrPicker.elements.select.value;
    corrInfo.textContent = 'computing…';
    try {
      corr = await api('/api/runs/' + encodeURIComponent(corrSection.dataset.run) + '/correlations' + (sel ? '?select=' + encodeURIComponent(sel) : ''));
      drawCorrelations();
    } catch (e) {
      corr = null;
      if (corrChart) { corrChart.dispose(); corrChart = null; }
      corrInfo.textContent = e.message;
    }
  }
  if (corrSection && window.echarts) {
    corrPicker.addEventListener('change', (ev) => { if (ev.target.name === 'select') loadCorrelations(); else drawCorrelations(); });
    corrPicker.addEventListener('submit', (ev) => ev.preventDefault());
    loadCorrelations();
  }
  window.kgRun.correlations = () => ({ chart: corrChart, data: corr });

  // Systems compared (analysis.Compare, fetched after the page): per system
  // and metric mean / best / worst, grade and class distributions as bar
  // charts, and the pairwise tests with win rates. A metric picker narrows
  // both tables.
  const sysSection = document.getElementById('systems-section');
  const sysPicker = document.getElementById('systems-picker');
  const sysInfo = document.getElementById('systems-info');
  let systemsData = null;
  const distCharts = {};
  const pfmt = (t) => (t ? t.p.toPrecision(3) : '–');
  const sysName = (s) => kg.visible(s) || '(none)';
  function sampleLink(x) {
    if (!x) return el('td', { class: 'muted' }, '–');
    return el('td', {}, el('a', { href: path('runs', sysSection.dataset.run, 'samples', x.sample) }, x.sample));
  }
  // distribution draws counts per category (grades, classes) and system as
  // grouped bars; hidden when no system has any.
  function distribution(id, title, order, get) {
    const box = document.getElementById(id);
    if (distCharts[id]) { distCharts[id].dispose(); delete distCharts[id]; }
    const systems = systemsData.systems.filter((s) => get(s));
    box.hidden = systems.length === 0;
    if (box.hidden) return;
    const cats = [...order];
    for (const s of systems) for (const k of Object.keys(get(s)).sort()) if (!cats.includes(k)) cats.push(k);
    const chart = echarts.init(box, null, { renderer: 'canvas' });
    chart.setOption({
      animation: false,
      title: { text: title, subtext: 'samples per ' + (id === 'grade-chart' ? 'grade' : 'class') + ' and system', textStyle: { fontSize: 13 } },
      legend: { top: 40, type: 'scroll' },
      grid: { left: 45, right: 10, top: 75, bottom: 30 },
      tooltip: { trigger: 'axis', formatter: (xs) => esc(xs[0].name) + '<br>' + xs.map((x) => esc(x.seriesName) + ': ' + x.value).join('<br>') },
      xAxis: { type: 'category', data: cats },
      yAxis: { type: 'value', minInterval: 1 },
      series: systems.map((s, i) => ({ name: sysName(s.system), type: 'bar', data: cats.map((c) => get(s)[c] || 0), itemStyle: { color: palette[i % palette.length] } })),
    });
    distCharts[id] = chart;
  }
  function drawSystems() {
    if (!systemsData) return;
    const one = sysPicker.elements.metric.value;
    const rows = [];
    const names = systemsData.systems.length ? systemsData.systems[0].metrics.map((m) => m.metric) : [];
    names.forEach((name, k) => {
      if (one && name !== one) return;
      for (const s of systemsData.systems) {
        const m = s.metrics[k];
        rows.push(el('tr', { 'data-metric': name, 'data-system': sysName(s.system) },
          el('td', {}, name), el('td', {}, sysName(s.system)), el('td', { class: 'n' }, String(m.n)), el('td', { class: 'n' }, String(m.null)),
          el('td', { class: 'n' }, fmt(m.mean)), el('td', { class: 'n' }, m.best ? fmt(m.best.value) : '–'), sampleLink(m.best),
          el('td', { class: 'n' }, m.worst ? fmt(m.worst.value) : '–'), sampleLink(m.worst)));
      }
    });
    document.querySelector('#system-metrics tbody').replaceChildren(...rows);
    const minN = Number(sysSection.dataset.minN || 10);
    let hidden = 0;
    const diffs = systemsData.differences.filter((d) => !one || d.metric === one).map((d) => {
      const low = (t) => (t && t.p < 0.05 ? 'n p-low' : 'n');
      // A p-value over fewer than minN samples is hidden, with the reason.
      if (d.n < minN) {
        hidden++;
        const why = 'hidden: n = ' + d.n + ' < ' + minN;
        const cellOf = (t) => (t ? el('td', { class: 'n p-hidden', title: 'p-value hidden: n = ' + d.n + ' is below web.min_n = ' + minN }, why) : el('td', { class: 'n' }, '–'));
        return el('tr', { 'data-metric': d.metric, 'data-a': d.a, 'data-b': d.b, 'data-hidden': 'n' },
          el('td', {}, d.metric), el('td', {}, d.a), el('td', {}, d.b), el('td', {}, d.paired ? 'paired' : 'Welch'), el('td', { class: 'n' }, String(d.n)),
          el('td', { class: 'n' }, fmt(d.mean_a)), el('td', { class: 'n' }, fmt(d.mean_b)),
          cellOf(d.wilcoxon), cellOf(d.paired_t), cellOf(d.welch),
          el('td', { class: 'n win-rate' }, fmt(d.win_rate)), el('td', { class: 'n' }, d.wins + ' / ' + d.ties + ' / ' + d.losses),
          el('td', { class: 'muted' }, 'too few samples for a p-value'));
      }
      const note = Object.entries(d.reasons || {}).map(([k, v]) => k + ': ' + v).join('; ');
      return el('tr', { 'data-metric': d.metric, 'data-a': d.a, 'data-b': d.b },
        el('td', {}, d.metric), el('td', {}, d.a), el('td', {}, d.b), el('td', {}, d.paired ? 'paired' : 'Welch'), el('td', { class: 'n' }, String(d.n)),
        el('td', { class: 'n' }, fmt(d.mean_a)), el('td', { class: 'n' }, fmt(d.mean_b)),
        el('td', { class: low(d.wilcoxon) }, pfmt(d.wilcoxon)), el('td', { class: low(d.paired_t) }, pfmt(d.paired_t)), el('td', { class: low(d.welch) }, pfmt(d.welch)),
        el('td', { class: 'n win-rate' }, fmt(d.win_rate)), el('td', { class: 'n' }, d.wins + ' / ' + d.ties + ' / ' + d.losses),
        el('td', { class: 'muted' }, note));
    });
    const note = document.getElementById('systems-min-n');
    note.hidden = hidden === 0;
    note.textContent = hidden ? 'p-values of ' + hidden + ' of ' + diffs.length + ' comparisons are hidden: they rest on fewer than ' + minN +
      ' samples (web.min_n), too few for a test to mean anything; the means and win rates are shown.' : '';
    const tbody = document.querySelector('#system-differences tbody');
    if (diffs.length) tbody.replaceChildren(...diffs);
    else tbody.replaceChildren(el('tr', {}, el('td', { colspan: '13', class: 'muted' }, systemsData.systems.length < 2 ? 'one system: no pairwise comparison' : 'no metric selected')));
    sysInfo.textContent = systemsData.systems.length + ' systems, ' + names.length + ' metrics over ' + systemsData.samples + ' samples' +
      (systemsData.empty.length ? '; without any value: ' + systemsData.empty.join(', ') : '');
  }
  async function loadSystems() {
    sysInfo.textContent = 'computing…';
    try {
      systemsData = await api('/api/runs/' + encodeURIComponent(sysSection.dataset.run) + '/systems');
      const names = systemsData.systems.length ? systemsData.systems[0].metrics.map((m) => m.metric) : [];
      sysPicker.elements.metric.replaceChildren(el('option', { value: '' }, 'all'), ...names.map((n) => el('option', {}, n)));
      distribution('grade-chart', 'factual_accuracy grades', ['A', 'B', 'C', 'D', 'E'], (s) => s.grades);
      distribution('class-chart', 'answer_class classes', ['CORRECT', 'WRONG', 'DONT_KNOW'], (s) => s.classes);
      drawSystems();
    } catch (e) {
      systemsData = null;
      sysInfo.textContent = e.message;
    }
  }
  if (sysSection && window.echarts) {
    sysPicker.addEventListener('change', drawSystems);
    sysPicker.addEventListener('submit', (ev) => ev.preventDefault());
    loadSystems();
  }
  window.kgRun.systems = () => ({ data: systemsData, grades: distCharts['grade-chart'] || null, classes: distCharts['class-chart'] || null });

  const form = document.getElementById('sample-filter');
  const tbody = document.querySelector('#samples tbody');
  const info = document.getElementById('page-info');
  const column = document.getElementById('metric-column');
  const limit = 25;
  let offset = 0, total = 0;
  const run = form ? form.dataset.run : '';

  // A KG metric is read per pair; any other metric has no pair. Every
  // metric but the graph scores (in the pair columns) gets a column.
  function syncForm() {
    const m = form.elements.metric.value;
    form.elements.pair.disabled = !kgMetrics.has(m);
    column.hidden = graphMetrics.has(m);
    column.replaceChildren(kgMetrics.has(m) ? form.elements.pair.value + ' ' + m : m, el('br'),
      el('span', { class: 'muted' }, lowerIsBetter.has(m) ? 'value (lower is better)' : 'value'));
  }
  // Picking a lower-is-better metric sorts the worst (highest) first.
  function defaultOrder() {
    form.elements.order.value = lowerIsBetter.has(form.elements.metric.value) ? 'desc' : 'asc';
  }
  // The most contradicted samples first, for the chosen pair when its input
  // is not a question (a question has no contradiction), else the first
  // such pair.
  function mostContradicted() {
    const chosen = pairs.find((p) => p.name === form.elements.pair.value);
    const pair = chosen && chosen.input !== 'question' ? chosen : pairs.find((p) => p.input !== 'question');
    if (pair) form.elements.pair.value = pair.name;
    form.elements.metric.value = 'contradiction';
    form.elements.sort.value = 'score';
    form.elements.order.value = 'desc';
    syncForm();
    toAddress();
    offset = 0;
    load();
  }
  // The filter in the address, so that a sorted list can be linked.
  const filterKeys = ['pair', 'metric', 'min', 'max', 'null', 'reason', 'system', 'sort', 'order'];
  function toAddress() {
    const f = new FormData(form);
    const q = new URLSearchParams();
    for (const k of filterKeys) {
      const v = f.get(k);
      if (v !== null && v !== '') q.set(k, v);
    }
    history.replaceState(null, '', location.pathname + '?' + q.toString());
  }
  function fromAddress() {
    const q = new URLSearchParams(location.search);
    for (const k of filterKeys) {
      const v = q.get(k);
      const f = form.elements[k];
      if (v === null || !f) continue;
      if (f.tagName === 'SELECT' && ![...f.options].some((o) => o.value === v)) continue;
      f.value = v;
    }
  }

  let seq = 0;
  async function load() {
    const mine = ++seq;
    const f = new FormData(form);
    const metric = f.get('metric');
    const other = metric && !kgMetrics.has(metric);
    const verdictMetric = metric && kgMetrics.has(metric) && !graphMetrics.has(metric);
    const pairName = f.get('pair');
    const q = new URLSearchParams({ offset: String(offset), limit: String(limit) });
    for (const k of filterKeys) {
      const v = f.get(k);
      if (v !== null && v !== '') q.set(k, v);
    }
    const cols = 3 + pairs.length + (other || verdictMetric ? 1 : 0);
    try {
      const page = await api('/api/runs/' + encodeURIComponent(run) + '/samples?' + q.toString());
      if (mine !== seq) return; // a later load replaced this one
      total = page.total;
      tbody.replaceChildren(...page.samples.map((s) => el('tr', {},
        el('td', { class: 'n' }, String(s.record)),
        el('td', {}, el('a', { href: path('runs', run, 'samples', s.id), class: 'sample-link clip', title: kg.visible(s.id) }, s.id)),
        el('td', {}, el('span', { class: 'clip', title: kg.visible(s.system) }, s.system || '')),
        pairs.map((p) => {
          const x = s.scores[p.name];
          if (!x) return el('td', { class: 'muted' }, '—');
          if (x.multihop === null) return el('td', { class: 'muted', title: x.reason || '' }, 'null: ' + (x.reason || ''));
          return el('td', { class: 'n' }, fmt(x.multihop) + ' / ' + fmt(x.community_overlap) + ' / ' + fmt(x.community_coverage));
        }),
        other ? metricCell(s.metrics && s.metrics[metric]) : null,
        verdictMetric ? kgCell(s.scores[pairName], metric) : null)));
      info.textContent = total === 0 ? 'no sample matches' : (offset + 1) + '–' + Math.min(offset + limit, total) + ' of ' + total;
      tbody.dataset.query = q.toString(); // what the rows show, for tests
    } catch (e) {
      if (mine !== seq) return;
      tbody.replaceChildren(el('tr', {}, el('td', { colspan: String(cols), class: 'error' }, e.message)));
      info.textContent = '';
    }
  }
  // kgCell shows a verdict score of one pair, or why it is null.
  function kgCell(x, metric) {
    if (!x) return el('td', { class: 'muted metric-cell' }, '—');
    const v = x[metric];
    if (v === null || v === undefined) {
      const why = (x.reasons && x.reasons[metric]) || x.reason || '';
      return el('td', { class: 'muted metric-cell', title: why }, 'null: ' + why);
    }
    return el('td', { class: 'n metric-cell' }, fmt(v));
  }
  function metricCell(m) {
    if (!m) return el('td', { class: 'muted' }, '—');
    if (m.value === null) return el('td', { class: 'muted metric-cell', title: m.reason || '' }, 'null: ' + (m.reason || ''));
    return el('td', { class: 'n metric-cell' }, fmt(m.value));
  }

  showMetrics();
  showSweep();
  if (!form) return;
  form.elements.metric.addEventListener('change', () => { defaultOrder(); syncForm(); });
  form.elements.pair.addEventListener('change', syncForm);
  form.addEventListener('submit', (ev) => { ev.preventDefault(); toAddress(); offset = 0; load(); });
  document.getElementById('sort-contradiction').addEventListener('click', mostContradicted);
  fromAddress();
  document.getElementById('prev').addEventListener('click', () => { if (offset > 0) { offset = Math.max(0, offset - limit); load(); } });
  document.getElementById('next').addEventListener('click', () => { if (offset + limit < total) { offset += limit; load(); } });
  syncForm();
  load();
})();
