// Sensitivity experiment: per metric, the histograms of the three runs
// (original, reference_as_answer, wrong_answer) over the metric's fixed
// scale, drawn with ECharts from the page's embedded JSON.
'use strict';
(function () {
  const { el, fmt, palette } = window.kg;
  const data = kg.data('sensitivity-data');
  const box = document.getElementById('sensitivity-histograms');
  const picker = document.getElementById('sensitivity-picker');
  const colors = { original: palette[0], reference_as_answer: palette[2], wrong_answer: palette[3] };
  let charts = [];

  function labels(h) {
    const bins = h.Counts.length, w = (h.Hi - h.Lo) / bins, d = h.Hi - h.Lo > 10 ? 0 : 1;
    return Array.from({ length: bins }, (_, i) => (h.Lo + i * w).toFixed(d) + '–' + (h.Lo + (i + 1) * w).toFixed(d));
  }
  function draw() {
    if (!data || !box || !window.echarts) return;
    const one = picker.elements.metric.value;
    for (const c of charts) c.dispose();
    charts = [];
    box.replaceChildren();
    for (const m of data.metrics.filter((x) => !one || x.metric === one)) {
      const div = el('div', { class: 'chart wide', 'data-metric': m.metric });
      box.appendChild(div);
      const chart = echarts.init(div, null, { renderer: 'canvas' });
      const outside = m.variants.map((v) => v.histogram.Under + v.histogram.Over).reduce((a, b) => a + b, 0);
      chart.setOption({
        animation: false,
        title: { text: m.metric, subtext: 'AUROC ' + fmt(m.auroc) + ' · Cohen\'s d ' + fmt(m.cohens_d) + (outside ? ' · ' + outside + ' outside the scale' : ''), textStyle: { fontSize: 13 } },
        legend: { top: 38, textStyle: { fontSize: 10 } },
        grid: { left: 40, right: 10, top: 70, bottom: 45 },
        tooltip: { trigger: 'axis' },
        xAxis: { type: 'category', data: labels(m.variants[0].histogram), axisLabel: { fontSize: 9, rotate: 45 } },
        yAxis: { type: 'value', minInterval: 1 },
        series: m.variants.map((v) => ({ name: v.variant + ' (n=' + v.n + ')', type: 'bar', data: v.histogram.Counts, itemStyle: { color: colors[v.variant] } })),
      });
      charts.push(chart);
    }
  }
  if (picker) {
    picker.addEventListener('change', draw);
    picker.addEventListener('submit', (ev) => ev.preventDefault());
  }
  window.kgSensitivity = { charts: () => charts, data };
  draw();
})();
