// Run dashboard: score histograms (ECharts) and the paged, filtered sample list.
'use strict';
(function () {
  const { el, fmt, api, path } = window.kg;
  const stats = kg.data('stats-data');
  const pairs = kg.data('pairs-data') || [];
  const charts = document.getElementById('histograms');
  if (stats && charts && window.echarts) {
    const bins = stats.bins;
    const labels = Array.from({ length: bins }, (_, i) => (i / bins).toFixed(1) + '–' + ((i + 1) / bins).toFixed(1));
    for (const h of stats.histograms) {
      const box = el('div', { class: 'chart', 'data-pair': h.pair, 'data-metric': h.metric });
      charts.appendChild(box);
      const chart = echarts.init(box, null, { renderer: 'canvas' });
      chart.setOption({
        animation: false,
        title: { text: h.pair + ' · ' + h.metric, subtext: 'mean ' + fmt(h.mean) + ' · ' + h.nulls + ' null', textStyle: { fontSize: 13 } },
        grid: { left: 40, right: 10, top: 55, bottom: 40 },
        tooltip: { trigger: 'axis' },
        xAxis: { type: 'category', data: labels, axisLabel: { fontSize: 9, rotate: 45 } },
        yAxis: { type: 'value', minInterval: 1 },
        series: [{ type: 'bar', data: h.counts, itemStyle: { color: '#4e79a7' } }],
      });
    }
  }

  const form = document.getElementById('sample-filter');
  if (!form) return;
  const run = form.dataset.run;
  const tbody = document.querySelector('#samples tbody');
  const info = document.getElementById('page-info');
  const limit = 25;
  let offset = 0, total = 0;

  async function load() {
    const f = new FormData(form);
    const q = new URLSearchParams({ offset: String(offset), limit: String(limit) });
    for (const k of ['pair', 'metric', 'min', 'max', 'null', 'reason', 'system', 'sort', 'order']) {
      const v = f.get(k);
      if (v !== null && v !== '') q.set(k, v);
    }
    try {
      const page = await api('/api/runs/' + encodeURIComponent(run) + '/samples?' + q.toString());
      total = page.total;
      tbody.replaceChildren(...page.samples.map((s) => el('tr', {},
        el('td', { class: 'n' }, String(s.record)),
        el('td', {}, el('a', { href: path('runs', run, 'samples', s.id), class: 'sample-link' }, s.id)),
        el('td', {}, s.system || ''),
        pairs.map((p) => {
          const x = s.scores[p.name];
          if (!x) return el('td', { class: 'muted' }, '—');
          if (x.multihop === null) return el('td', { class: 'muted', title: x.reason || '' }, 'null: ' + (x.reason || ''));
          return el('td', { class: 'n' }, fmt(x.multihop) + ' / ' + fmt(x.community_overlap) + ' / ' + fmt(x.community_coverage));
        }))));
      info.textContent = total === 0 ? 'no sample matches' : (offset + 1) + '–' + Math.min(offset + limit, total) + ' of ' + total;
    } catch (e) {
      tbody.replaceChildren(el('tr', {}, el('td', { colspan: String(3 + pairs.length), class: 'error' }, e.message)));
      info.textContent = '';
    }
  }
  form.addEventListener('submit', (ev) => { ev.preventDefault(); offset = 0; load(); });
  document.getElementById('prev').addEventListener('click', () => { if (offset > 0) { offset = Math.max(0, offset - limit); load(); } });
  document.getElementById('next').addEventListener('click', () => { if (offset + limit < total) { offset += limit; load(); } });
  load();
})();
