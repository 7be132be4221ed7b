// Run vs run: picking a pair or a metric reloads the comparison with it
// (the server draws the page; without this script the Compare button
// does the same). Picking a metric read once per sample (not a KG
// metric) greys out the pair, which it does not use.
'use strict';
(function () {
  const form = document.getElementById('compare-form');
  if (!form) return;
  const pair = form.elements.pair, metric = form.elements.metric;
  const kg = new Set((form.dataset.kgMetrics || '').split(' ').filter(Boolean));
  function mark() {
    if (pair && metric) pair.disabled = !kg.has(metric.value);
  }
  for (const s of [pair, metric]) {
    if (!s) continue;
    s.addEventListener('change', () => {
      mark();
      form.requestSubmit();
    });
  }
  mark();
})();
