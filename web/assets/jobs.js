// kgeval jobs page (issue 16 item 5): upload a dataset and see its
// rejected records, start an evaluation, watch its progress (polled every
// second, so a reload loses nothing: the server keeps the job), cancel,
// resume, and (admins) delete a run. Text goes in with textContent only.
'use strict';
(function () {
  const kg = window.kg;
  const $ = (id) => document.getElementById(id);
  const table = $('jobs');
  const admin = table.dataset.admin === '1';
  const errBox = $('jobs-error');
  let upload = null;
  let pendingDelete = null;

  function showError(e) { errBox.textContent = e ? (e.message || String(e)) : ''; }

  function dur(s) {
    if (s === null || s === undefined || s < 0 || !isFinite(s)) return '–';
    s = Math.round(s);
    if (s < 60) return s + ' s';
    if (s < 3600) return Math.floor(s / 60) + ' min ' + (s % 60) + ' s';
    return Math.floor(s / 3600) + ' h ' + Math.floor((s % 3600) / 60) + ' min';
  }

  // The upload report: records read, valid, and each rejected record by
  // number and reason.
  function renderUpload(u) {
    const box = $('upload-report');
    box.replaceChildren();
    box.appendChild(kg.el('p', { id: 'upload-summary' },
      u.name + ' (' + u.format + ', ' + u.bytes + ' bytes): ' + u.records + ' records, ' + u.valid + ' valid, ' + u.rejected_total + ' rejected' +
      (u.rejected_total > u.rejected.length ? ' (the first ' + u.rejected.length + ' listed)' : '')));
    if (u.rejected.length) {
      const rows = u.rejected.map((r) => kg.el('tr', null,
        kg.el('td', { class: 'n' }, String(r.record)), kg.el('td', { class: 'clip' }, r.id || ''), kg.el('td', null, r.reason)));
      box.appendChild(kg.el('table', { class: 'grid', id: 'upload-rejected' },
        kg.el('thead', null, kg.el('tr', null, kg.el('th', null, 'record'), kg.el('th', null, 'id'), kg.el('th', null, 'reason'))),
        kg.el('tbody', null, rows)));
    }
    $('start-button').disabled = !u.id || u.valid === 0;
  }

  $('upload-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    showError(null);
    const f = $('upload-file').files[0];
    if (!f) return;
    const max = Number($('upload-form').dataset.max);
    if (max > 0 && f.size > max) {
      showError(f.name + ' has ' + f.size + ' bytes: the server takes at most ' + max + ' (web.upload_max_bytes)');
      return;
    }
    try {
      const res = await fetch('/api/uploads?name=' + encodeURIComponent(f.name), {
        method: 'POST', body: f, credentials: 'same-origin',
        headers: { 'X-CSRF-Token': kg.csrf(), 'Content-Type': 'application/octet-stream', Accept: 'application/json' },
      });
      let body = null;
      try { body = await res.json(); } catch (e) { /* not JSON */ }
      if (!res.ok) throw new Error((body && body.error) || res.status + ' ' + res.statusText);
      upload = body;
      renderUpload(body);
    } catch (e) {
      upload = null;
      $('upload-report').replaceChildren();
      $('start-button').disabled = true;
      showError(e);
    }
  });

  $('start-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    showError(null);
    if (!upload) return;
    const metrics = [...document.querySelectorAll('input[name="metric"]:checked')].map((i) => i.value);
    try {
      await kg.api('/api/jobs', { method: 'POST', body: {
        upload: upload.id, run: $('start-run').value.trim(), metrics, engine: $('start-engine').value,
        limit: Number($('start-limit').value) || 0, cache_only: $('start-cache-only').checked,
      } });
      await refresh();
    } catch (e) { showError(e); }
  });

  async function act(path, method) {
    showError(null);
    try {
      await kg.api(path, { method });
      await refresh();
    } catch (e) { showError(e); }
  }

  function row(j) {
    const pct = j.total > 0 ? Math.min(100, Math.round(100 * j.done / j.total)) : 0;
    const bar = kg.el('progress', { max: '100', value: String(pct) });
    const progress = kg.el('td', { class: 'job-progress' }, bar, ' ', kg.el('span', { class: 'job-count' }, j.total > 0 ? j.done + ' / ' + j.total : '–'));
    const calls = j.calls || {};
    const actions = kg.el('td', { class: 'job-actions' });
    if (j.live && j.status === 'running') actions.appendChild(kg.el('button', { type: 'button', class: 'job-cancel', onclick: () => act(kg.path('api', 'jobs', j.run, 'cancel'), 'POST') }, 'Cancel'));
    if (j.resumable) actions.appendChild(kg.el('button', { type: 'button', class: 'job-resume', onclick: () => act(kg.path('api', 'jobs', j.run, 'resume'), 'POST') }, 'Resume'));
    // A stored run still 'running' that no job here runs may be another
    // process's evaluation: the page offers no delete for it (the API does).
    if (admin && j.status !== 'running') {
      // Two clicks: "Delete run", then "Confirm delete" (no dialog).
      const sure = pendingDelete === j.run;
      actions.appendChild(kg.el('button', { type: 'button', class: 'job-delete danger' + (sure ? ' sure' : ''), onclick: () => {
        if (!sure) { pendingDelete = j.run; refresh(); return; }
        pendingDelete = null;
        act(kg.path('api', 'runs', j.run), 'DELETE');
      } }, sure ? 'Confirm delete' : 'Delete run'));
    }
    const name = j.status === 'running' ? kg.el('span', { class: 'clip', title: kg.visible(j.run) }, j.run)
      : kg.el('a', { class: 'clip', href: kg.path('runs', j.run), title: kg.visible(j.run) }, j.run);
    const status = kg.el('td', null, kg.el('span', { class: 'status ' + j.status }, j.status));
    if (j.error) status.appendChild(kg.el('div', { class: 'muted job-error' }, j.error));
    if (j.note) status.appendChild(kg.el('div', { class: 'muted job-note' }, j.note));
    return kg.el('tr', { 'data-run': j.run, 'data-status': j.status, 'data-done': String(j.done), 'data-stage': j.stage || '' },
      kg.el('td', null, name),
      status,
      kg.el('td', { class: 'job-stage' }, j.stage || '–'),
      progress,
      kg.el('td', { class: 'n job-rate' }, j.rate > 0 ? j.rate.toFixed(1) + '/s' : '–'),
      kg.el('td', { class: 'n job-eta' }, j.status === 'running' ? dur(j.eta) : '–'),
      kg.el('td', { class: 'n job-calls', title: (calls.failures || 0) + ' failed, ' + (calls.cache_hits || 0) + ' cached' }, String(calls.calls || 0)),
      kg.el('td', null, j.started ? j.started.replace('T', ' ').slice(0, 19) : ''),
      actions);
  }

  async function refresh() {
    try {
      const body = await kg.api('/api/jobs');
      table.tBodies[0].replaceChildren(...body.jobs.map(row));
      if (!body.jobs.length) table.tBodies[0].appendChild(kg.el('tr', null, kg.el('td', { colspan: '9', class: 'muted' }, 'No job yet.')));
      $('jobs-updated').textContent = 'updated ' + new Date().toLocaleTimeString();
    } catch (e) { showError(e); }
  }
  // Delete any stored run (admins): the first click arms the button, the
  // second deletes; choosing another run disarms it.
  const delForm = $('delete-form');
  if (delForm) {
    const sel = $('delete-run'), btn = $('delete-button');
    const disarm = () => { btn.classList.remove('sure'); btn.textContent = 'Delete run'; };
    sel.addEventListener('change', disarm);
    delForm.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      showError(null);
      if (!sel.value) return;
      if (!btn.classList.contains('sure')) {
        btn.classList.add('sure');
        btn.textContent = 'Confirm delete of ' + kg.visible(sel.value).slice(0, 60);
        return;
      }
      disarm();
      try {
        await kg.api(kg.path('api', 'runs', sel.value), { method: 'DELETE' });
        sel.remove(sel.selectedIndex);
        await refresh();
      } catch (e) { showError(e); }
    });
  }

  refresh();
  setInterval(refresh, 1000);
})();
