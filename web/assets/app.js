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
    // el builds an element; string children become text with their
    // invisible characters marked (kg.vis); attrs.text sets the text as it
    // is (the console's highlighter, which must match its textarea).
    el(tag, attrs, ...children) {
      const e = document.createElement(tag);
      attrs = attrs || {};
      for (const [k, v] of Object.entries(attrs)) {
        if (v === undefined || v === null || v === false) continue;
        if (k === 'class') e.className = v;
        else if (k === 'text') e.textContent = v;
        else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
        else e.setAttribute(k, v);
      }
      const kids = children.flat(Infinity).filter((c) => c !== undefined && c !== null);
      // An option's value is its raw text, not the marked one.
      if (tag === 'option' && attrs.value === undefined && kids.every((c) => typeof c === 'string')) e.value = kids.join('');
      for (const c of kids) {
        if (typeof c === 'string') e.appendChild(tag === 'option' ? document.createTextNode(kg.visible(c)) : kg.vis(c));
        else e.appendChild(typeof c === 'number' ? document.createTextNode(String(c)) : c);
      }
      return e;
    },
    // Text that cannot break the page (issue 16 item 6; web/text.go does
    // the same on the server): control, bidi and zero-width characters are
    // shown as a marked "⟨U+202E⟩". visible returns the text with markers
    // (canvas labels, attributes); vis a fragment with marked spans.
    invisibleRE: /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g,
    marker(ch) { return '⟨U+' + ch.codePointAt(0).toString(16).toUpperCase().padStart(4, '0') + '⟩'; },
    visible(s) {
      if (s === null || s === undefined) return '';
      return String(s).replace(kg.invisibleRE, kg.marker);
    },
    vis(s) {
      s = String(s);
      const f = document.createDocumentFragment();
      let last = 0;
      for (const m of s.matchAll(kg.invisibleRE)) {
        if (m.index > last) f.appendChild(document.createTextNode(s.slice(last, m.index)));
        const span = document.createElement('span');
        span.className = 'invis';
        span.title = 'invisible character ' + kg.marker(m[0]).slice(1, -1);
        span.textContent = kg.marker(m[0]);
        f.appendChild(span);
        last = m.index + m[0].length;
      }
      if (last < s.length || last === 0) f.appendChild(document.createTextNode(s.slice(last)));
      return f;
    },
    fmt(v) { return v === null || v === undefined ? 'null' : Number(v).toFixed(3); },
    path(...parts) { return '/' + parts.map(encodeURIComponent).join('/'); },
    // data reads the JSON a page embeds in <script type="application/json">.
    data(id) { const n = document.getElementById(id); return n ? JSON.parse(n.textContent) : null; },
    palette: ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac', '#17becf', '#bcbd22'],
  };
  window.kg = kg;
})();
