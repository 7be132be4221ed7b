// kgeval dashboard: helpers shared by every page. Data is only ever put in
// the page with textContent (never innerHTML), so no text can run as code.
'use strict';
(function () {
  const meta = document.querySelector('meta[name="csrf-token"]');
  const kg = {
    csrf: () => (meta ? meta.content : ''),
    // api fetches a JSON endpoint; errors carry the server's message.
    async api(path, opts) {
      opts = Object.assign({ headers: {} }, opts || {});
      opts.headers = Object.assign({ Accept: 'application/json' }, opts.headers);
      if (opts.body !== undefined && typeof opts.body !== 'string') {
        opts.body = JSON.stringify(opts.body);
        opts.headers['Content-Type'] = 'application/json';
      }
      if (opts.method && opts.method !== 'GET') opts.headers['X-CSRF-Token'] = kg.csrf();
      opts.credentials = 'same-origin';
      const res = await fetch(path, opts);
      let body = null;
      try { body = await res.json(); } catch (e) { /* not JSON */ }
      if (!res.ok) {
        const err = new Error((body && body.error) || res.status + ' ' + res.statusText);
        err.status = res.status;
        throw err;
      }
      return body;
    },
    // el builds an element; string children become text nodes.
    el(tag, attrs, ...children) {
      const e = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs || {})) {
        if (v === undefined || v === null || v === false) continue;
        if (k === 'class') e.className = v;
        else if (k === 'text') e.textContent = v;
        else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
        else e.setAttribute(k, v);
      }
      for (const c of children.flat()) {
        if (c === undefined || c === null) continue;
        e.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
      }
      return e;
    },
    fmt(v) { return v === null || v === undefined ? 'null' : Number(v).toFixed(3); },
    path(...parts) { return '/' + parts.map(encodeURIComponent).join('/'); },
    // data reads the JSON a page embeds in <script type="application/json">.
    data(id) { const n = document.getElementById(id); return n ? JSON.parse(n.textContent) : null; },
    palette: ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac', '#17becf', '#bcbd22'],
  };
  window.kg = kg;
})();
