// Browser test of the dashboard in headless Chromium (playwright-core with
// Debian's chromium): sign in, open a run (KG and other-metric histograms,
// the metric picker driving the sample list, the sweep curves), open a
// sample and see a metric value with its explanation, see its pair graph
// drawn with the stored number of nodes, click an input entity and see its
// path highlighted, run a Cypher query and see rows, check that sample text
// holding HTML is shown as text; see the systems compared (grade and class
// charts, tests and win rates, against the API) and a sensitivity
// experiment's page with the numbers `kgeval sensitivity` printed and
// wrote; sort the samples by contradiction and open the worst one's Why
// (contradiction first, evidence sentence marked, dropped triplets struck
// through, a 10,000-character word that does not widen the page); run
// against run (runVsRun: a regressed sample found, A = A refused); the
// hostile-text run (hostileText: every page within the window at 1366 and
// 375 px, bidi and zero-width characters marked, console cells readable);
// screenshots go to docs/screenshots/.
// Started by scripts/browser-test.sh, which provides:
//   KGEVAL_URL (server base), KGEVAL_TOKEN (API token), KGEVAL_RUN (run name),
//   KGEVAL_SAMPLE (sample whose graph to draw), KGEVAL_XSS_SAMPLE (sample
//   whose question holds <script>), KGEVAL_WHY_SAMPLE (sample with a
//   contradicted answer triplet and a dropped one), KGEVAL_LONG_SAMPLE
//   (sample whose evidence sentence holds a 10,000-character word),
//   KGEVAL_HOSTILE_ID, KGEVAL_HOSTILE_SYSTEM (the 300-character id and the
//   200-character system name of the hostile-text sample; run
//   KGEVAL_RUN-hostile holds the hostile samples alone),
//   KGEVAL_REGRESSED (the sample made worse in run KGEVAL_RUN-v2),
//   KGEVAL_SENS (run prefix of a sensitivity
//   experiment), KGEVAL_SENS_JSON (the report it wrote), KGEVAL_SENS_LOG
//   (what it printed), KGEVAL_JOB_RUN (the run name a job gets),
//   KGEVAL_JOB_BROKEN (a dataset whose record 3 is rejected), KGEVAL_DELETE_RUN
//   (a run the admin deletes from the jobs page), KGEVAL_JOB_DATA
//   (300 records with given triplets; the server slows jobs down with
//   serve --test-job-delay), KGEVAL_RULES_RUN, KGEVAL_RULES_SAMPLE (a run
//   with extraction.method rules and a sample of it), KGEVAL_SHOTS
//   (screenshot folder).
// Every step is named in plan below, in the order it runs. A step that
// fails stops the run (the steps after it depend on its page), and the run
// fails unless every planned step ran and passed: something thrown outside
// a step, or a step never reached, fails it too, by name.
import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const base = process.env.KGEVAL_URL;
const token = process.env.KGEVAL_TOKEN;
const run = process.env.KGEVAL_RUN;
const rulesRun = process.env.KGEVAL_RULES_RUN, rulesSample = process.env.KGEVAL_RULES_SAMPLE;
const sample = process.env.KGEVAL_SAMPLE;
const xssSample = process.env.KGEVAL_XSS_SAMPLE;
const whySample = process.env.KGEVAL_WHY_SAMPLE;
const longSample = process.env.KGEVAL_LONG_SAMPLE;
const hostileID = process.env.KGEVAL_HOSTILE_ID;
const hostileSystem = process.env.KGEVAL_HOSTILE_SYSTEM;
const rtlID = 'rtl\u202Eexe.png';
// What a page shows for a text: bidi controls, zero-width and control
// characters as a marker "⟨U+202E⟩" (web/text.go, app.js kg.visible).
const shown = (x) => String(x).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g,
  (c) => '⟨U+' + c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0') + '⟩');
const shots = process.env.KGEVAL_SHOTS || 'docs/screenshots';
const pair = 'faithfulness';
const enc = encodeURIComponent;

const plan = [
  'ReadRunFromAPI', 'SignIn',
  'TriageVisibleWithoutScrolling', 'TriageSortMarksColumn', 'TriageFilterBySystem', 'MetricMeaningOnHover', 'TinyNHidden',
  'OpenRun', 'MetricPicker', 'CorrelationHeatmap', 'SystemsCompared', 'SweepCurves', 'SortByContradiction',
  'OpenSample', 'MetricExplanation', 'GraphDrawn', 'ClickEntityShowsPath', 'RuleTripletsMarkedAndHidden',
  'HTMLShownAsText', 'WhyTable', 'CypherConsole', 'Sensitivity',
  'RunVsRunRegressedMost', 'RunVsRunSameRunRefused',
  'JobUploadRejected', 'JobStartProgress', 'JobReloadCancel', 'JobResumeDone', 'JobDeleteRun', 'DeleteAnyRun', 'JobsPageFits',
  'HostileTextRecords', 'HostileTextFits1366', 'HostileTextFits375', 'HostileTextMarked', 'HostileTextConsole',
  'NoErrors',
];
const ran = new Set();
let passed = 0, failed = 0;
// What a failed step throws, once it has reported the failure; anything
// else reaching the end of the run was thrown outside a step.
class StepFailed extends Error {}
async function step(name, fn) {
  const t0 = Date.now();
  try {
    if (!plan.includes(name)) throw new Error(`step ${name} is not in the plan at the top of browser-test.mjs`);
    if (ran.has(name)) throw new Error(`step ${name} ran twice`);
    ran.add(name);
    await fn();
    passed++;
    console.log(`--- PASS: browser/${name} (${((Date.now() - t0) / 1000).toFixed(2)}s)`);
  } catch (e) {
    failed++;
    console.log(`--- FAIL: browser/${name}: ${e.stack || e}`);
    throw new StepFailed(`step ${name} failed`, { cause: e });
  }
}

// What the API says the graph holds, to compare with what is drawn.
const api = async (path) => {
  const res = await fetch(base + path, { headers: { Authorization: 'Bearer ' + token } });
  assert.equal(res.status, 200, path);
  return res.json();
};
// Read by step ReadRunFromAPI, which every later step follows.
let graph, detail, stats, sweep, systems;
const tsMetric = 'ts_groundedness_avg';
const sens = process.env.KGEVAL_SENS;
const f3 = (v) => (v === null || v === undefined ? 'null' : v.toFixed(3));

// jobs: the jobs page (issue 16 item 5): an upload with a broken record
// listed by its number and reason; a job started on a 300-record upload,
// its progress seen to advance, the page reloaded (the job is still there
// and still advancing), the job cancelled (the run stored as interrupted)
// and resumed to done; the run deleted by the admin (two clicks), and
// another run deleted from the admin's run picker.
async function jobs() {
  const jobRun = process.env.KGEVAL_JOB_RUN;
  const row = `#jobs tbody tr[data-run="${jobRun}"]`;
  const done = () => page.$eval(row, (tr) => Number(tr.dataset.done)).catch(() => -1);
  const runStatus = async () => (await api(`/api/runs/${enc(jobRun)}`)).run.status;

  await step('JobUploadRejected', async () => {
    await page.setViewportSize({ width: 1400, height: 950 });
    await page.goto(base + '/jobs');
    await page.setInputFiles('#upload-file', process.env.KGEVAL_JOB_BROKEN);
    await page.click('#upload-form button[type=submit]');
    await page.waitForSelector('#upload-rejected tbody tr');
    assert.match(await page.textContent('#upload-summary'), /3 records, 2 valid, 1 rejected/);
    const cells = (await page.locator('#upload-rejected tbody tr').first().locator('td').allTextContents()).map((c) => c.trim());
    console.log(`    rejected record ${cells[0]} (${cells[1]}): ${cells[2]}`);
    assert.equal(cells[0], '3', 'the broken record by its number');
    assert.equal(cells[1], 'no-question');
    assert.match(cells[2], /missing question/);
  });

  let seen;
  await step('JobStartProgress', async () => {
    await page.setInputFiles('#upload-file', process.env.KGEVAL_JOB_DATA);
    await page.click('#upload-form button[type=submit]');
    await page.waitForFunction(() => /300 records, 300 valid, 0 rejected/.test(document.getElementById('upload-summary')?.textContent || ''));
    await page.fill('#start-run', jobRun);
    await page.selectOption('#start-engine', 'native');
    for (const box of await page.locator('input[name="metric"]').all()) await box.uncheck();
    await page.click('#start-button');
    await page.waitForSelector(`${row}[data-status="running"] button.job-cancel`);
    await page.waitForFunction((sel) => Number(document.querySelector(sel)?.dataset.done) > 0, row);
    const first = await done();
    await page.waitForFunction(([sel, n]) => Number(document.querySelector(sel)?.dataset.done) > n, [row, first], { timeout: 60000 });
    seen = await done();
    const stage = await page.textContent(`${row} td.job-stage`);
    console.log(`    progress: ${stage} ${first} -> ${seen} (${await page.textContent(`${row} span.job-count`)}, rate ${await page.textContent(`${row} td.job-rate`)}, ETA ${await page.textContent(`${row} td.job-eta`)})`);
    assert.ok(seen > first, 'progress advances');
    await page.screenshot({ path: `${shots}/jobs.png`, fullPage: true });
  });

  await step('JobReloadCancel', async () => {
    await page.reload();
    await page.waitForSelector(`${row}[data-status="running"] button.job-cancel`);
    const after = await done();
    console.log(`    after reload: ${after} (before ${seen})`);
    assert.ok(after >= seen, 'the job survives a reload');
    await page.waitForFunction(([sel, n]) => Number(document.querySelector(sel)?.dataset.done) > n, [row, after], { timeout: 60000 });
    console.log(`    still advancing after the reload: ${await done()}`);
    await page.click(`${row} button.job-cancel`);
    await page.waitForSelector(`${row}[data-status="interrupted"] button.job-resume`, { timeout: 60000 });
    assert.equal(await runStatus(), 'interrupted', 'the stored run is interrupted');
  });

  await step('JobResumeDone', async () => {
    await page.click(`${row} button.job-resume`);
    await page.waitForSelector(`${row}[data-status="done"]`, { timeout: 180000 });
    const r = await api(`/api/runs/${enc(jobRun)}`);
    console.log(`    resumed: ${r.run.status}, ${r.run.samples} samples`);
    assert.equal(r.run.status, 'done');
    assert.equal(r.run.samples, 300);
    assert.ok(await page.isVisible(`${row} a[href="/runs/${enc(jobRun)}"]`), 'a done run links to its page');
  });

  await step('JobDeleteRun', async () => {
    await page.click(`${row} button.job-delete`);
    await page.click(`${row} button.job-delete.sure`);
    await page.waitForSelector(row, { state: 'detached' });
    const res = await fetch(base + `/api/runs/${enc(jobRun)}`, { headers: { Authorization: 'Bearer ' + token } });
    assert.equal(res.status, 404, 'the run is deleted');
  });

  await step('DeleteAnyRun', async () => {
    // Any stored run, from the admin's run picker (two clicks).
    const victim = process.env.KGEVAL_DELETE_RUN;
    assert.equal((await api(`/api/runs/${enc(victim)}`)).run.name, victim);
    await page.selectOption('#delete-run', victim);
    await page.click('#delete-button');
    assert.match(await page.textContent('#delete-button'), /Confirm delete/);
    await page.click('#delete-button');
    await page.waitForFunction((v) => ![...document.querySelectorAll('#delete-run option')].some((o) => o.value === v), victim);
    const res = await fetch(base + `/api/runs/${enc(victim)}`, { headers: { Authorization: 'Bearer ' + token } });
    assert.equal(res.status, 404, 'the picked run is deleted');
    assert.ok(await page.locator(`#delete-run option[value="${run}"]`).count() === 1, 'the other runs stay');
  });

  await step('JobsPageFits', async () => {
    for (const size of [{ width: 1366, height: 768 }, { width: 375, height: 800 }]) {
      await page.setViewportSize(size);
      await page.goto(base + '/jobs');
      await page.waitForSelector('#jobs tbody tr');
      const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: window.innerWidth }));
      console.log(`    jobs page at ${size.width}px: ${w.scroll}px wide`);
      assert.ok(w.scroll <= w.view, `jobs page ${w.scroll}px wide in a ${w.view}px window`);
    }
    await page.setViewportSize({ width: 1400, height: 950 });
  });
}

// hostileText: the hostile-text run (issue 16 item 6; the records
// scripts/browser-test.sh adds: a 300-character id, a 200-character system
// name, a 10,000-character answer, an id holding U+202E, an entity label of
// zero-width characters) keeps every page within the window at 1366×768
// and 375×800, the U+202E shows as a marker, the zero-width label is not
// blank, the console shows nodes, relationships and maps as readable cells
// and the header's "Sign out" is whole at phone width.
async function hostileText() {
  const sizes = [{ width: 1366, height: 768 }, { width: 375, height: 800 }];
  const rtlSample = `/runs/${enc(run)}/samples/${enc(rtlID)}`;
  const consoleQuery = `MATCH (e:Entity {run: '${run}', pair: '${pair}'})-[r]->(x)\n` +
    `WHERE e.sample STARTS WITH 'rtl' OR e.sample STARTS WITH 'hostile-'\n` +
    `RETURN e, r, x, {sample: e.sample, label: e.label, graph: e.graph} AS m LIMIT 20`;
  const pages = [
    { name: 'runs', path: '/', ready: '#runs' },
    { name: 'run', path: `/runs/${enc(run)}`, ready: '#samples tbody a.sample-link', wait: () => page.waitForSelector('#system-metrics tbody tr') },
    { name: 'sample-long', path: `/runs/${enc(run)}/samples/${enc(hostileID)}`, ready: '#text-answer' },
    { name: 'sample-rtl', path: rtlSample, ready: '#sample-id' },
    { name: 'graph', path: `${rtlSample}/graphs/${pair}`, ready: '#entities li', wait: () => page.waitForFunction(() => window.cy && window.cy.nodes().length > 0) },
    { name: 'compare', path: `/compare?a=${enc(run)}&b=${enc(run + '-hostile')}`, ready: '#compare-samples' },
    { name: 'sensitivity', path: `/runs/${enc(process.env.KGEVAL_SENS)}/sensitivity`, ready: '#sensitivity-histograms .chart canvas' },
    { name: 'console', path: '/cypher', ready: '#query', wait: async () => {
      await page.fill('#query', consoleQuery);
      await page.click('#run-query');
      await page.waitForSelector('#result-table tbody tr');
    } },
  ];
  const fits = async (where) => {
    const w = await page.evaluate(() => {
      // The outermost element that sticks out of the window names the culprit.
      const out = [...document.querySelectorAll('body *')].find((e) => e.getBoundingClientRect().right > window.innerWidth + 1);
      const name = out ? out.tagName.toLowerCase() + (out.id ? '#' + out.id : '') + (out.className && typeof out.className === 'string' ? '.' + out.className.trim().split(/\s+/).join('.') : '') : '';
      return { scroll: document.documentElement.scrollWidth, view: window.innerWidth, out: name };
    });
    assert.ok(w.scroll <= w.view, `${where}: page ${w.scroll}px wide in a ${w.view}px window (first element past the edge: ${w.out || 'none found'})`);
    return w;
  };
  const notBlank = async (loc, what) => {
    const b = await loc.evaluate((e) => ({ text: e.innerText.trim(), width: e.getBoundingClientRect().width }));
    assert.ok(b.text.length > 0 && b.width >= 10, `${what} is blank: ${JSON.stringify(b)}`);
    return b.text;
  };

  await step('HostileTextRecords', async () => {
    const d = await api(`/api/runs/${enc(run)}/samples/${enc(hostileID)}`);
    assert.equal(hostileID.length, 300, 'a 300-character id');
    assert.equal(hostileSystem.length, 200, 'a 200-character system name');
    assert.equal(d.system, hostileSystem);
    assert.equal(d.answer.length, 10000, 'a 10,000-character answer');
    const r = await api(rtlSample.replace('/runs/', '/api/runs/'));
    assert.equal(r.id, rtlID, 'an id holding U+202E');
  });

  for (const size of sizes) {
    await step(`HostileTextFits${size.width}`, async () => {
      await page.setViewportSize(size);
      const widths = [];
      for (const p of pages) {
        await page.goto(base + p.path);
        await page.waitForSelector(p.ready);
        if (p.wait) await p.wait();
        await page.waitForLoadState('networkidle');
        const w = await fits(`${p.name} at ${size.width}px`);
        widths.push(`${p.name} ${w.scroll}`);
        // "Sign out" whole and inside the window.
        const out = await page.locator('header.top .logout button').boundingBox();
        assert.ok(out && out.x >= 0 && out.x + out.width <= size.width && out.y >= 0, `${p.name}: Sign out at ${JSON.stringify(out)}`);
      }
      // The sign-in page, in a fresh (signed-out) context.
      const ctx = await browser.newContext({ viewport: size });
      const login = await ctx.newPage();
      await login.goto(base + '/login');
      await login.waitForSelector('#sign-in');
      const lw = await login.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: window.innerWidth }));
      await ctx.close();
      assert.ok(lw.scroll <= lw.view, `login at ${size.width}px: ${lw.scroll}px wide`);
      widths.push(`login ${lw.scroll}`);
      console.log(`    widths at ${size.width}px: ${widths.join(', ')}`);
    });
  }

  await step('HostileTextMarked', async () => {
    await page.setViewportSize({ width: 1366, height: 768 });
    // The run page's sample list: the U+202E id as a marker, the 300-character
    // id clamped with the whole in its title.
    await page.goto(`${base}/runs/${enc(run)}`);
    await page.waitForSelector('#samples tbody a.sample-link');
    const links = page.locator('#samples tbody a.sample-link');
    const texts = await links.allTextContents();
    assert.ok(texts.includes('rtl⟨U+202E⟩exe.png'), `the U+202E id shown with its marker: ${texts}`);
    assert.ok(!texts.some((t) => t.includes('\u202E')), 'no raw U+202E in the list');
    const rtlLink = links.filter({ hasText: 'rtl⟨U+202E⟩exe.png' });
    assert.ok(await rtlLink.locator('span.invis').isVisible(), 'the marker is visible');
    const long = links.filter({ hasText: 'hostile-iii' });
    assert.equal(await long.getAttribute('title'), hostileID, 'the long id whole in its title');
    const lb = await long.boundingBox();
    assert.ok(lb.height < 80, `the long id clamped to a few lines (${lb.height}px)`);
    // Server-rendered: the sample page's id, question and triplets.
    await page.goto(base + rtlSample);
    assert.equal(await page.textContent('#sample-id'), 'rtl⟨U+202E⟩exe.png', 'the id with its marker');
    assert.ok(await page.locator('#sample-id span.invis').isVisible(), 'the marker is visible');
    assert.equal(await page.locator('#sample-id span.invis').getAttribute('title'), 'invisible character U+202E RIGHT-TO-LEFT OVERRIDE');
    assert.ok((await page.textContent('#text-question')).includes('rtl⟨U+202E⟩exe.png'), 'the question too');
    assert.ok((await page.textContent('#text-answer')).includes('⟨U+2066⟩of⟨U+2069⟩ a heath⟨U+200B⟩.'), 'isolates and a zero-width space in the answer');
    const zw = '⟨U+200B⟩⟨U+200C⟩⟨U+200D⟩⟨U+2060⟩⟨U+FEFF⟩';
    const cell = page.locator(`#pair-${pair} .triplets td`, { hasText: zw }).first();
    assert.equal(await notBlank(cell, 'the zero-width label in the triplet table'), zw);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: `${shots}/hostile-375.png` });
    await page.setViewportSize({ width: 1366, height: 768 });
    // The 10,000-character answer is shown whole, wrapped.
    await page.goto(`${base}/runs/${enc(run)}/samples/${enc(hostileID)}`);
    assert.equal((await page.textContent('#text-answer')).length, 10000, 'the whole answer');
    assert.equal(await page.textContent('#sample-id'), hostileID);
    // The graph page: the zero-width entity is a labelled button and node.
    await page.goto(`${base}${rtlSample}/graphs/${pair}`);
    await page.waitForFunction(() => window.cy && window.cy.nodes().length > 0);
    assert.equal(await notBlank(page.locator('#entities button.entity', { hasText: zw }), 'the zero-width entity button'), zw);
    const labels = await page.evaluate(() => cy.nodes().map((n) => n.data('label')));
    assert.ok(labels.includes(zw), `the zero-width node labelled ${zw}: ${labels}`);
    assert.ok(labels.includes('rtl⟨U+202E⟩exe.png'), 'the U+202E node labelled with its marker');
    assert.equal(await page.textContent('#sample-id'), 'rtl⟨U+202E⟩exe.png');
    // The run comparison lists both hostile samples, marked and clamped.
    await page.goto(`${base}/compare?a=${enc(run)}&b=${enc(run + '-hostile')}`);
    const ids = await page.locator('#compare-samples a.compare-sample').allTextContents();
    assert.deepEqual([...ids].sort(), [hostileID, 'rtl⟨U+202E⟩exe.png'].sort(), 'the samples of both runs');
  });

  await step('HostileTextConsole', async () => {
    // Nodes, relationships and maps as readable cells, not raw JSON; the
    // stored ids' separator U+001F and the U+202E marked.
    await page.goto(base + '/cypher');
    await page.fill('#query', consoleQuery);
    await page.click('#run-query');
    await page.waitForSelector('#result-table tbody tr');
    const heads = await page.locator('#result-table thead th').allTextContents();
    assert.deepEqual(heads, ['e', 'r', 'x', 'm']);
    const row = page.locator('#result-table tbody tr', { hasText: 'rtl⟨U+202E⟩exe.png' }).first();
    const cells = (await row.locator('td').allInnerTexts()).map((c) => c.replace(/\s+/g, ' ').trim());
    assert.match(cells[0], /^\(:Entity \{ .*label: .*sample: rtl⟨U\+202E⟩exe\.png.*\}\)$/, `node cell: ${cells[0]}`);
    assert.match(cells[1], /^\[:[A-Z_]+/, `relationship cell: ${cells[1]}`);
    assert.match(cells[3], /graph: .*⟨U\+001F⟩/, `map cell with marked separators: ${cells[3]}`);
    const all = (await page.locator('#result-table').innerText());
    assert.ok(!all.includes('\\u001f') && !all.includes('{"'), 'no raw JSON');
    assert.ok(await row.locator('span.invis').first().isVisible(), 'markers visible');
    await fits('console');
  });
}

// runVsRun: the run-vs-run page (issue 16 item 3). Run KGEVAL_RUN-v2 is a
// copy of the dataset in which KGEVAL_REGRESSED answers with facts the
// contexts do not hold: picking faithfulness support lists it first under
// "regressed most" with both values, answers and sample links (each opens
// its run's sample page), the different datasets are warned of, the
// numbers are the API's; A = A shows the refusal, not a table.
async function runVsRun() {
  const v2 = run + '-v2';
  const regressed = process.env.KGEVAL_REGRESSED;
  const metric = 'support';
  const pick = async (name, value) => {
    if ((await page.inputValue(`#compare-form select[name=${name}]`)) === value) return;
    await Promise.all([page.waitForURL(new RegExp(`[?&]${name}=${value}(&|$)`)), page.selectOption(`#compare-form select[name=${name}]`, value)]);
  };
  await step('RunVsRunRegressedMost', async () => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${base}/compare?a=${enc(run)}&b=${enc(v2)}`);
    assert.equal(await page.inputValue('#compare-form select[name=a]'), run);
    assert.equal(await page.inputValue('#compare-form select[name=b]'), v2);
    await pick('pair', pair);
    await pick('metric', metric);
    const want = await api(`/api/compare?a=${enc(run)}&b=${enc(v2)}&pair=${pair}&metric=${metric}`);
    assert.equal(want.key, `${pair}.${metric}`);
    assert.ok(want.chosen && want.chosen.regressed >= 1, `regressed pairs: ${JSON.stringify(want.chosen)}`);
    assert.equal(want.regressed[0].id, regressed, 'the API lists the modified sample first');
    // The different datasets are warned of, in the box above the numbers.
    assert.ok(want.warnings.some((w) => w.kind === 'dataset'), 'a dataset warning from the API');
    const warn = page.locator('#compare-warnings li[data-kind="dataset"]');
    assert.ok(await warn.isVisible(), 'the dataset warning is shown');
    assert.match(await warn.textContent(), /different datasets/);
    // "Regressed most": the modified sample first, side by side.
    await page.waitForSelector('#compare-regressed tbody tr');
    const rows = page.locator('#compare-regressed tbody tr');
    assert.equal(await rows.count(), want.regressed.length, 'a row per regressed sample');
    const first = rows.first();
    assert.equal((await first.locator('.regressed-id').textContent()).trim(), regressed, 'the modified sample first');
    const nums = (await first.locator('td.n').allTextContents()).map((c) => c.trim());
    const r0 = want.regressed[0];
    assert.deepEqual(nums, [f3(r0.baseline), f3(r0.run), f3(r0.diff)], 'A, B and B − A as the API');
    assert.ok(r0.diff < 0, `support fell: ${r0.diff}`);
    const answers = await first.locator('td.answer').allTextContents();
    assert.ok(answers[0].includes('Cornish heath') && answers[1].includes('Scottish thistle'), `the two answers side by side: ${answers}`);
    const chosen = page.locator('#compare-paired tr.chosen');
    assert.equal(await chosen.getAttribute('data-metric'), `${pair}.${metric}`, 'the chosen metric marked in the paired table');
    assert.equal((await chosen.locator('td.regressed').textContent()).trim(), String(want.chosen.regressed), 'regressed count');
    await page.screenshot({ path: `${shots}/compare-runs.png`, fullPage: true });
    // Its links open the sample in each run.
    await Promise.all([page.waitForURL(`**/runs/${enc(v2)}/samples/${enc(regressed)}`), first.locator('a.regressed-b').click()]);
    assert.equal(await page.textContent('#sample-id'), regressed);
    assert.ok((await page.textContent('#text-answer')).includes('Scottish thistle'), 'B\'s answer on B\'s sample page');
    await page.goBack();
    await Promise.all([page.waitForURL(`**/runs/${enc(run)}/samples/${enc(regressed)}`), page.locator('#compare-regressed tbody tr').first().locator('a.regressed-a').click()]);
    assert.equal(await page.textContent('#sample-id'), regressed);
    assert.ok((await page.textContent('#text-answer')).includes('Cornish heath'), 'A\'s answer on A\'s sample page');
  });
  await step('RunVsRunSameRunRefused', async () => {
    await page.goto(`${base}/compare?a=${enc(run)}&b=${enc(run)}`);
    const refusal = await page.textContent('#compare-refused');
    assert.match(refusal, /a run compared with itself shows no change/, refusal);
    assert.equal(await page.locator('#compare-samples, #compare-paired, #compare-regressed').count(), 0, 'no table');
    const res = await fetch(`${base}/api/compare?a=${enc(run)}&b=${enc(run)}`, { headers: { Authorization: 'Bearer ' + token } });
    assert.equal(res.status, 400, 'the API refuses A = A');
    assert.match((await res.json()).error, /compare two different runs/);
    // Opened without a choice: two different runs (the second-newest as A).
    await page.goto(`${base}/compare`);
    const a = await page.inputValue('#compare-form select[name=a]'), b = await page.inputValue('#compare-form select[name=b]');
    assert.notEqual(a, b, 'two different runs by default');
    assert.equal(await page.locator('#compare-refused').count(), 0, 'no refusal by default');
  });
}

// Started in the try at the end, so that a browser that does not start
// fails the run with its summary.
let browser, page;
const problems = [];
let expectRefusal = false;
async function openBrowser() {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 950 } });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push('console: ' + m.text()); });
  page.on('response', (r) => {
    if (r.status() < 400) return;
    if (expectRefusal && r.status() === 400 && r.url() === base + '/api/cypher') return;
    problems.push(r.status() + ' ' + r.url());
  });
  page.on('dialog', (d) => { problems.push('dialog opened: ' + d.message()); d.dismiss(); });
  page.on('request', (r) => { if (!r.url().startsWith(base)) problems.push('request off the server: ' + r.url()); });
}


// Triage (issue 16 items 1 and 2), on a 1366×768 window: the run page
// opens on the samples that need attention (the first failing row visible
// without scrolling), a column header sorts its table and says so
// (aria-sort, arrow), the system filter narrows the rows, a metric header
// carries its meaning from the registry, /help/metrics lists it, and the
// p-values and correlations over fewer than web.min_n samples are hidden
// with the reason shown. Leaves the page on the runs list.
async function triageSteps() {
  let triage;
  const runURL = `${base}/runs/${enc(run)}`;
  await step('TriageVisibleWithoutScrolling', async () => {
    triage = await api(`/api/runs/${enc(run)}/triage?limit=5`);
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(runURL);
    await page.waitForSelector('#triage tr.failing');
    const box = await page.evaluate(() => {
      const r = document.querySelector('#triage tr.failing').getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, scrollY: window.scrollY, h2: document.getElementById('triage-title').getBoundingClientRect().top };
    });
    console.log(`    first failing triage row: top ${box.top.toFixed(0)} px, bottom ${box.bottom.toFixed(0)} px of 768 (scrollY ${box.scrollY})`);
    assert.equal(box.scrollY, 0);
    assert.ok(box.bottom <= 768, `first failing row ends at ${box.bottom} px, below the 768 px window`);
    // Summary cards and charts come after it.
    const order = await page.evaluate(() => {
      const y = (sel) => document.querySelector(sel).getBoundingClientRect().top;
      return { triage: y('#triage'), cards: y('.cards'), charts: y('#histograms') };
    });
    assert.ok(order.triage < order.cards && order.cards < order.charts, `triage first: ${JSON.stringify(order)}`);
    // The rows are the API's, worst first, each cell marked ✓ or ✗ as text.
    const first = triage.pairs[0];
    const ids = await page.locator(`#triage table[data-pair="${first.pair}"] tbody a.sample-link`).allTextContents();
    assert.deepEqual(ids, first.rows.map((r) => r.id), 'rows in the API order');
    const marks = await page.locator(`#triage table[data-pair="${first.pair}"] tbody td.tri .mark`).allTextContents();
    const want = first.rows.flatMap((r) => r.cells.filter((c) => c.value !== null).map((c) => (c.pass ? '✓' : '✗')));
    assert.deepEqual(marks, want, 'pass/fail marks as text');
    assert.equal(await page.getAttribute(`#triage table[data-pair="${first.pair}"] th[data-sort="worst"]`, 'aria-sort'), 'descending', 'worst first is marked');
    // A row fails on its headline alone (the first column); the claims
    // that make a sample fail are inline, lowest score first.
    for (const p of triage.pairs) {
      for (const r of p.rows) assert.equal(r.failing, r.cells[0].pass === false ? 1 : 0, `${p.pair} ${r.id}: failing follows the headline ${p.headline}`);
    }
    const fc = triage.pairs.find((p) => p.rows.some((r) => (r.claims || []).length));
    assert.ok(fc, 'a pair with an unsupported claim');
    const row = fc.rows.find((r) => (r.claims || []).length);
    const firstBadge = await page.locator(`#triage table[data-pair="${fc.pair}"] tr[data-id="${row.id}"] ul.why-lines li.claim-line .badge`).first().textContent();
    assert.equal(firstBadge, row.claims[0].verdict + ' · ' + Number(row.claims[0].score).toFixed(3), `first unsupported claim of ${row.id}: ${firstBadge}`);
    assert.equal(await page.locator('#triage img').count(), 0, 'no element made from text');
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    await page.screenshot({ path: `${shots}/run-triage.png` });
  });
  await step('TriageSortMarksColumn', async () => {
    const p = triage.pairs[0].pair;
    const th = `#triage table[data-pair="${p}"] th[data-sort="multihop"]`;
    assert.equal(await page.getAttribute(th, 'aria-sort'), 'none');
    await page.click(`${th} button`);
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('aria-sort') === 'ascending', th);
    assert.match(await page.textContent(th), /▲/, 'an arrow on the sorted column');
    assert.equal(await page.getAttribute(`#triage table[data-pair="${p}"] th[data-sort="worst"]`, 'aria-sort'), 'none');
    const col = triage.pairs[0].columns.indexOf('multihop');
    const values = async () => (await page.locator(`#triage table[data-pair="${p}"] tbody tr`).evaluateAll((trs, col) =>
      trs.map((tr) => tr.querySelectorAll('td.tri')[col]?.textContent || ''), col)).filter((t) => !t.includes('null')).map((t) => Number(t.replace(/[^0-9.]/g, '')));
    const asc = await values();
    assert.ok(asc.length >= 2, `multihop values ${asc}`);
    assert.deepEqual(asc, [...asc].sort((a, b) => a - b), 'ascending');
    await page.click(`${th} button`);
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('aria-sort') === 'descending', th);
    assert.match(await page.textContent(th), /▼/);
    const desc = await values();
    assert.deepEqual(desc, [...desc].sort((a, b) => b - a), 'descending');
  });
  await step('TriageFilterBySystem', async () => {
    const before = await page.locator('#triage tbody tr[data-id]').count();
    await page.selectOption('#triage-filter select[name=system]', 'why');
    await page.waitForFunction(() => (document.getElementById('triage-pairs').dataset.query || '').includes('system=why'));
    const systemsShown = await page.locator('#triage tbody tr[data-id]').evaluateAll((trs) => trs.map((tr) => tr.dataset.system));
    assert.ok(systemsShown.length > 0 && systemsShown.length < before, `${systemsShown.length} rows of system why, ${before} before`);
    assert.ok(systemsShown.every((s) => s === 'why'), `systems ${systemsShown}`);
    const want = await api(`/api/runs/${enc(run)}/triage?limit=5&system=why`);
    assert.equal(systemsShown.length, want.pairs.reduce((a, p) => a + p.rows.length, 0), 'the API\'s rows');
    await page.click('#triage-filter button[type=reset]');
    await page.waitForFunction(() => !(document.getElementById('triage-pairs').dataset.query || '').includes('system='));
  });
  await step('MetricMeaningOnHover', async () => {
    const th = page.locator(`#triage table[data-pair="${triage.pairs[0].pair}"] th[data-sort="multihop"]`);
    const meaning = 'share of input entities that reach a context entity by a path of cost <= delta';
    await th.hover();
    const title = await th.getAttribute('title');
    assert.ok(title.includes(meaning) && title.includes('higher is better') && title.includes('δ 0.5'), `title: ${title}`);
    const described = await th.getAttribute('aria-describedby');
    assert.ok((await page.textContent(`#${described} + dd`)).includes(meaning), 'aria-describedby names the meaning');
    const con = page.locator('#triage table th[data-sort="contradiction"]');
    if (await con.count()) assert.match(await con.first().getAttribute('title'), /lower is better · 0 to 1 · passes at ≤ 0/);
    await page.goto(`${base}/help/metrics?run=${enc(run)}`);
    assert.ok((await page.textContent('#metric-multihop')).includes(meaning));
    assert.match(await page.textContent('#metric-contradiction'), /lower is better[\s\S]*≤ 0\.000/);
    assert.match(await page.textContent('#metric-multihop'), /τ 0\.7 \(SIMILAR edges\), δ 0\.5/);
  });
  await step('TinyNHidden', async () => {
    await page.goto(runURL);
    await page.waitForFunction(() => window.kgRun.systems().data !== null && window.kgRun.correlations().data !== null);
    const hidden = await page.locator('#system-differences tbody td.p-hidden').allTextContents();
    const tiny = systems.differences.filter((d) => d.n < 10);
    assert.ok(tiny.length > 0, 'comparisons over fewer than 10 samples');
    assert.ok(hidden.length > 0 && hidden.every((t) => /^hidden: n = \d+ < 10$/.test(t)), `hidden cells ${hidden.slice(0, 3)}`);
    assert.equal(await page.locator('#system-differences tbody tr[data-hidden="n"]').count(), tiny.length, 'every tiny-n comparison hidden');
    assert.ok(await page.isVisible('#systems-min-n'));
    assert.match(await page.textContent('#systems-min-n'), /fewer than 10 samples \(web\.min_n\)/);
    assert.ok(await page.isVisible('#corr-min-n'));
    assert.match(await page.textContent('#corr-min-n'), /hidden .*fewer than 10 samples/);
    console.log(`    ${hidden.length} p-value cells hidden in the ${tiny.length} comparisons with n < 10; ${await page.textContent('#corr-min-n')}`);
    await page.setViewportSize({ width: 1400, height: 950 });
    await page.goto(base + '/');
    await page.waitForSelector('#runs');
  });
}

let outside = null;
try {
  await step('ReadRunFromAPI', async () => {
    // What the API says of the run, to compare with what pages draw.
    graph = await api(`/api/runs/${enc(run)}/samples/${enc(sample)}/graphs/${pair}`);
    detail = await api(`/api/runs/${enc(run)}/samples/${enc(sample)}`);
    stats = await api(`/api/runs/${enc(run)}/stats`);
    sweep = await api(`/api/runs/${enc(run)}/sweep`);
    systems = await api(`/api/runs/${enc(run)}/systems`);
  });

  await openBrowser();

  await step('SignIn', async () => {
    await page.goto(base + '/');
    assert.match(page.url(), /\/login\?next=/);
    await page.fill('#token', token);
    await Promise.all([page.waitForURL(base + '/'), page.click('#sign-in')]);
    await page.waitForSelector('#runs');
    await page.screenshot({ path: `${shots}/runs.png` });
  });

  await triageSteps();

  await step('OpenRun', async () => {
    await Promise.all([page.waitForURL(`**/runs/${enc(run)}`), page.click(`#runs a[href="/runs/${enc(run)}"]`)]);
    await page.waitForSelector('#histograms .chart canvas');
    await page.waitForSelector('#samples tbody a.sample-link');
    const charts = await page.locator('#histograms .chart').count();
    assert.ok(charts >= 3, `${charts} histograms`);
    const rows = await page.locator('#samples tbody tr').count();
    assert.ok(rows >= 3, `${rows} sample rows`);
    await page.waitForSelector('#metric-histograms .chart canvas');
    assert.equal(await page.locator('#metric-histograms .chart').count(), stats.metrics.length, 'one histogram per other metric');
    assert.ok(stats.metrics.some((m) => m.metric === tsMetric), `${tsMetric} in the run's stats`);
    await page.screenshot({ path: `${shots}/run.png`, fullPage: true });
  });

  await step('MetricPicker', async () => {
    // Picking one metric draws its histogram and per-system means, and the
    // sample list shows and sorts by it.
    await page.selectOption('#metric-picker select[name=metric]', tsMetric);
    await page.waitForFunction(() => document.querySelectorAll('#metric-histograms .chart').length === 1);
    assert.equal(await page.getAttribute('#metric-histograms .chart', 'data-metric'), tsMetric);
    assert.ok(await page.isVisible('#metric-systems-chart canvas'), 'per-system chart');
    assert.equal(await page.locator('#metric-table tbody tr:visible').count(), 1, 'table narrowed to the metric');
    assert.equal(await page.inputValue('#sample-filter select[name=metric]'), tsMetric);
    await page.selectOption('#sample-filter select[name=sort]', 'score');
    await page.selectOption('#sample-filter select[name=order]', 'desc');
    await page.click('#sample-filter button[type=submit]');
    await page.waitForFunction(() => (document.querySelector('#samples tbody').dataset.query || '').includes('sort=score'));
    const cells = await page.locator('#samples tbody td.metric-cell').allTextContents();
    const values = cells.filter((c) => !c.startsWith('null')).map(Number);
    assert.ok(values.length >= 1, `metric cells ${cells}`);
    assert.deepEqual(values, [...values].sort((a, b) => b - a), 'sorted by the metric, descending');
    const want = stats.metrics.find((m) => m.metric === tsMetric);
    assert.equal(cells.filter((c) => c.startsWith('null')).length, want.nulls, 'null values listed');
    assert.ok(cells.slice(values.length).every((c) => c.startsWith('null')), 'null values last');
    await page.locator('#other-metrics').screenshot({ path: `${shots}/run-metric.png` });
  });

  await step('CorrelationHeatmap', async () => {
    const corr = await api(`/api/runs/${enc(run)}/correlations`);
    assert.ok(corr.variables.length >= 10, `${corr.variables.length} variables`);
    await page.waitForFunction(() => window.kgRun.correlations().chart !== null);
    const drawn = await page.evaluate(() => {
      const { chart, data } = window.kgRun.correlations();
      const o = chart.getOption();
      return { vars: o.xAxis[0].data, cells: o.series.reduce((a, x) => a + x.data.length, 0), defined: o.series[0].data, tiny: o.series[2].data };
    });
    assert.deepEqual(drawn.vars, corr.variables, 'one row and column per variable');
    const n = corr.variables.length;
    assert.equal(drawn.cells, n * n, 'n × n cells');
    const p = corr.pairs.find((x) => x.pearson_r !== null);
    const i = corr.variables.indexOf(p.x), j = corr.variables.indexOf(p.y);
    // Over fewer than web.min_n (10) samples a coefficient is hidden.
    if (p.n >= 10) {
      const cell = drawn.defined.find((c) => c[0] === i && c[1] === j);
      assert.ok(cell && Math.abs(cell[2] - p.pearson_r) < 1e-12, `cell ${p.x} × ${p.y}: ${cell} vs ${p.pearson_r}`);
    } else {
      assert.ok(drawn.tiny.some((c) => c[0] === i && c[1] === j), `cell ${p.x} × ${p.y} (n = ${p.n}) hidden`);
    }
    // A human label whose name holds HTML: its tooltip shows it as text.
    const h = corr.variables.findIndex((v) => v.startsWith('human.<img'));
    assert.ok(h >= 0, 'the HTML-named human label is a variable');
    await page.evaluate((h) => {
      const c = window.kgRun.correlations().chart;
      const o = c.getOption();
      const k = o.series[1].data.findIndex((d) => d[0] === h || d[1] === h);
      c.dispatchAction({ type: 'showTip', seriesIndex: 1, dataIndex: Math.max(0, k) });
    }, h);
    await page.waitForFunction(() => document.getElementById('correlations').textContent.includes('human.<img'));
    assert.equal(await page.locator('#correlations img').count(), 0, 'no element made from a label name');
    assert.equal(await page.evaluate(() => window.__xss), undefined, 'label name did not run');
    await page.evaluate(() => window.kgRun.correlations().chart.dispatchAction({ type: 'hideTip' }));
    await page.locator('#correlation-section').screenshot({ path: `${shots}/correlations.png` });
  });

  await step('SystemsCompared', async () => {
    // The grade and class charts draw the API's counts, one series per
    // system that has any; the tables list every system and metric and
    // every pair of systems; a system named with HTML is shown as text.
    await page.waitForFunction(() => window.kgRun.systems().data !== null);
    const drawn = await page.evaluate(() => {
      const { grades, classes } = window.kgRun.systems();
      const series = (c) => c && c.getOption().series.map((s) => ({ name: s.name, data: s.data }));
      const cats = (c) => c && c.getOption().xAxis[0].data;
      return { grades: series(grades), gradeCats: cats(grades), classes: series(classes), classCats: cats(classes) };
    });
    const withGrades = systems.systems.filter((s) => s.grades);
    assert.ok(withGrades.length >= 3, `${withGrades.length} systems with grades`);
    assert.deepEqual(drawn.grades.map((s) => s.name), withGrades.map((s) => s.system), 'one grade series per system');
    for (const [i, s] of withGrades.entries()) {
      assert.deepEqual(drawn.grades[i].data, drawn.gradeCats.map((g) => s.grades[g] || 0), `grades of ${s.system}`);
    }
    const withClasses = systems.systems.filter((s) => s.classes);
    assert.deepEqual(drawn.classes.map((s) => s.name), withClasses.map((s) => s.system), 'one class series per system');
    for (const [i, s] of withClasses.entries()) {
      assert.deepEqual(drawn.classes[i].data, drawn.classCats.map((c) => s.classes[c] || 0), `classes of ${s.system}`);
    }
    assert.ok(drawn.classCats.includes('DONT_KNOW') && drawn.gradeCats.includes('A'), 'grade and class categories');
    const nMetrics = systems.systems[0].metrics.length;
    assert.equal(await page.locator('#system-metrics tbody tr').count(), nMetrics * systems.systems.length, 'a row per metric and system');
    assert.equal(await page.locator('#system-differences tbody tr').count(), systems.differences.length, 'a row per metric and pair of systems');
    // One metric: the tables narrow, and its win rates are the API's.
    await page.selectOption('#systems-picker select[name=metric]', 'factual_accuracy');
    assert.equal(await page.locator('#system-metrics tbody tr').count(), systems.systems.length);
    const diffs = systems.differences.filter((d) => d.metric === 'factual_accuracy');
    assert.equal(await page.locator('#system-differences tbody tr').count(), diffs.length);
    const rates = await page.locator('#system-differences tbody td.win-rate').allTextContents();
    assert.deepEqual(rates, diffs.map((d) => f3(d.win_rate)), 'win rates');
    assert.ok(diffs.some((d) => d.win_rate === 1), 'grounded beats the others on the question they share');
    const html = systems.systems.find((s) => s.system.startsWith('<img'));
    assert.ok(html, 'a system named with HTML');
    const cells = await page.locator('#system-metrics tbody td').allTextContents();
    assert.ok(cells.includes(html.system), 'the HTML system name is shown as text');
    assert.equal(await page.locator('#systems-section img').count(), 0, 'no element made from a system name');
    assert.equal(await page.evaluate(() => window.__xss), undefined, 'system name did not run');
    await page.locator('#systems-section').screenshot({ path: `${shots}/systems.png` });
    await page.selectOption('#systems-picker select[name=metric]', '');
  });

  await step('SweepCurves', async () => {
    assert.ok(sweep.points.length > 0, 'the run has sweep variants');
    await page.waitForSelector('#sweep .chart canvas');
    assert.equal(await page.locator('#sweep .chart').count(), sweep.pairs.length, 'one sweep chart per pair');
    const lines = await page.evaluate(() => window.kgRun.sweepCharts().map((c) => c.getOption().series.map((s) => ({ name: s.name, n: s.data.length }))));
    for (const l of lines) {
      assert.deepEqual(l.map((s) => s.name), sweep.taus.map((t) => 'τ ' + t), 'one line per tau');
      for (const s of l) assert.equal(s.n, sweep.deltas.length, 'one point per delta');
    }
    await page.selectOption('#sweep-picker select[name=metric]', 'community_overlap');
    await page.waitForFunction(() => window.kgRun.sweepCharts()[0].getOption().title[0].text.includes('community_overlap'));
    await page.selectOption('#sweep-picker select[name=metric]', 'multihop');
    await page.locator('#sweep-section').screenshot({ path: `${shots}/sweep.png` });
  });

  let worstHref = null;
  await step('SortByContradiction', async () => {
    // Picking contradiction (a KG metric: read per pair) orders highest
    // first; "most contradicted first" for factual_correctness: the list
    // reads the pair's contradiction, highest first, nulls last, as the API
    // sorts it.
    await page.selectOption('#sample-filter select[name=metric]', 'contradiction');
    assert.equal(await page.inputValue('#sample-filter select[name=order]'), 'desc', 'lower-is-better: descending by default');
    await page.selectOption('#sample-filter select[name=pair]', 'factual_correctness');
    await page.click('#sort-contradiction');
    await page.waitForFunction(() => {
      const q = document.querySelector('#samples tbody').dataset.query || '';
      return q.includes('metric=contradiction') && q.includes('pair=factual_correctness') && q.includes('order=desc');
    });
    assert.match(page.url(), /[?&]metric=contradiction(&|$)/, 'the sort is in the address');
    assert.equal(await page.inputValue('#sample-filter select[name=sort]'), 'score');
    assert.ok(await page.isVisible('#metric-column'), 'a contradiction column');
    const want = await api(`/api/runs/${enc(run)}/samples?pair=factual_correctness&metric=contradiction&sort=score&order=desc&limit=25`);
    const ids = await page.locator('#samples tbody a.sample-link').allTextContents();
    assert.deepEqual(ids, want.samples.map((x) => shown(x.id)), 'rows in the API order');
    const cells = await page.locator('#samples tbody td.metric-cell').allTextContents();
    assert.deepEqual(cells.map((c) => (c.startsWith('null') ? null : Number(c))),
      want.samples.map((x) => (x.scores.factual_correctness.contradiction === null ? null : Number(x.scores.factual_correctness.contradiction.toFixed(3)))));
    assert.equal(ids[0], whySample, 'the contradicted sample first');
    assert.ok(Number(cells[0]) > 0, `its contradiction ${cells[0]}`);
    worstHref = await page.getAttribute('#samples tbody tr:first-child a.sample-link', 'href');
  });

  await step('OpenSample', async () => {
    await Promise.all([page.waitForURL(`**/samples/${enc(sample)}`), page.click(`#samples a.sample-link:text-is("${sample}")`)]);
    assert.equal(await page.textContent('#sample-id'), sample);
    const scoreRows = await page.locator('#scores tbody tr').count();
    assert.ok(scoreRows >= 1);
  });

  await step('MetricExplanation', async () => {
    // Every stored metric value is listed; ts_groundedness_avg shows its
    // value and, opened, each answer triplet's best context match.
    assert.equal(await page.locator('#metrics > tbody > tr').count(), detail.metrics.length, 'one row per metric value');
    const m = detail.metrics.find((x) => x.metric === tsMetric);
    assert.ok(m && m.value !== null && m.explanation.matches.length > 0, `${tsMetric} of ${sample}: ${JSON.stringify(m)}`);
    const row = page.locator(`#metrics tr[data-metric="${tsMetric}"]`);
    assert.equal((await row.locator('.metric-value').textContent()).trim(), m.value.toFixed(3));
    await row.locator('details.expl summary').click();
    const best = m.explanation.matches[0].best;
    const table = row.locator('details.expl table.expl-table');
    await table.waitFor();
    assert.ok(await table.isVisible(), 'the explanation opens');
    const cells = (await table.locator('tbody td').allTextContents()).map((c) => c.trim());
    assert.ok(cells.includes(best), `best match "${best}" shown in ${cells}`);
    const cos = m.explanation.matches[0].cos;
    assert.ok((await table.textContent()).includes(String(Number(cos.toFixed(3)))), `cosine ${cos} shown`);
    for (const x of detail.metrics.filter((x) => x.value === null)) {
      assert.equal((await page.locator(`#metrics tr[data-metric="${x.metric}"] .metric-reason`).textContent()).trim(), x.reason);
    }
    await page.screenshot({ path: `${shots}/sample.png`, fullPage: true });
  });

  await step('GraphDrawn', async () => {
    await Promise.all([page.waitForURL(`**/graphs/${pair}`), page.click(`a.graph-link[href$="/graphs/${pair}"]`)]);
    await page.waitForFunction(() => window.cy && window.cy.nodes().length > 0);
    const drawn = await page.evaluate(() => ({ nodes: cy.nodes().length, edges: cy.edges().length, sim: cy.edges('.sim').length }));
    assert.equal(drawn.nodes, graph.nodes.length, 'nodes drawn vs stored');
    assert.equal(drawn.edges, graph.edges.length, 'edges drawn vs stored');
    assert.equal(drawn.sim, graph.edges.filter((e) => e.type === 'SIMILAR').length);
  });

  await step('ClickEntityShowsPath', async () => {
    // The input entity with the longest best path.
    const target = graph.paths.filter((p) => p.path_ids).sort((a, b) => b.path_ids.length - a.path_ids.length)[0];
    assert.ok(target, 'an input entity with a path');
    const box = await page.locator('#cy').boundingBox();
    const pos = await page.evaluate((id) => cy.getElementById('n' + id).renderedPosition(), target.node);
    await page.mouse.click(box.x + pos.x, box.y + pos.y);
    await page.waitForSelector('#path-verdict');
    const hi = await page.evaluate(() => ({ nodes: cy.nodes('.path').map((n) => n.data('nid')), edges: cy.edges('.path').length }));
    assert.deepEqual([...hi.nodes].sort(), [...target.path_ids].sort(), 'highlighted nodes are the best path');
    assert.equal(hi.edges, target.path_ids.length - 1, 'highlighted edges');
    const verdict = await page.textContent('#path-verdict');
    assert.ok(verdict.includes('δ') && verdict.includes(target.cost.toFixed(3)), verdict);
    await page.screenshot({ path: `${shots}/graph.png` });
    await page.check('#communities');
    await page.screenshot({ path: `${shots}/graph-communities.png` });
  });

  await step('RuleTripletsMarkedAndHidden', async () => {
    // A run with extraction.method rules: its relation nodes are marked
    // (dashed) and the checkbox hides them and the entities only they use,
    // then shows them again.
    const rg = await api(`/api/runs/${enc(rulesRun)}/samples/${enc(rulesSample)}/graphs/faithfulness`);
    const ruleRels = rg.nodes.filter((n) => n.kind === 'relation' && n.source === 'rules').length;
    assert.ok(ruleRels > 0 && ruleRels === rg.nodes.filter((n) => n.kind === 'relation').length, `every relation read by rule: ${ruleRels}`);
    await page.goto(`${base}/runs/${enc(rulesRun)}/samples/${enc(rulesSample)}/graphs/faithfulness`);
    await page.waitForFunction(() => window.cy && window.cy.nodes().length > 0);
    const count = () => page.evaluate(() => ({ rules: cy.nodes('node.relation.rules').length, visible: cy.nodes(':visible').length }));
    const shown = await count();
    assert.equal(shown.rules, ruleRels, 'rule-read relations drawn marked');
    assert.equal(shown.visible, rg.nodes.length, 'all drawn at first');
    await page.uncheck('#rule-triplets');
    assert.equal((await count()).visible, 0, 'nothing left once the rule-read triplets are hidden');
    await page.check('#rule-triplets');
    assert.equal((await count()).visible, rg.nodes.length, 'all shown again');
  });

  await step('HTMLShownAsText', async () => {
    await page.goto(`${base}/runs/${enc(run)}/samples/${enc(xssSample)}`);
    const q = await page.textContent('#text-question');
    assert.ok(q.includes('<script>'), 'the question is shown with its <script> text');
    assert.equal(await page.locator('#text-question script, #text-question img').count(), 0, 'no element made from sample text');
    assert.equal(await page.evaluate(() => window.__xss), undefined, 'sample text did not run');
  });

  await step('WhyTable', async () => {
    // The worst sample's Why: every input triplet of every pair, the pair
    // with the contradiction first and the contradiction its first row;
    // the evidence sentences marked; the dropped triplet struck through.
    const why = (await api(`/api/runs/${enc(run)}/samples/${enc(whySample)}`)).why;
    await page.goto(base + worstHref);
    await page.waitForSelector('#why table.why-table');
    assert.equal(await page.locator('#why tr.why-line').count(), why.length, 'a row per input triplet');
    const first = page.locator('#why tr.why-line').first();
    assert.equal(await first.getAttribute('data-verdict'), 'contradicted', 'the contradiction first');
    assert.equal(why[0].verdict, 'contradicted');
    assert.equal((await first.locator('td.why-triplet').textContent()).trim(), why[0].triplet);
    assert.equal(await first.locator('.badge').first().evaluate((e) => getComputedStyle(e).backgroundColor), 'rgb(197, 48, 48)', 'red badge');
    const marked = why.filter((l) => l.sentence);
    assert.ok(marked.length >= 1, 'an evidence sentence');
    assert.deepEqual((await page.locator('#why table.why-table mark').allTextContents()).sort(), marked.map((l) => l.sentence).sort(), 'evidence sentences marked');
    // The rule-read checks (atom_support, typed_slot_coverage): a row each,
    // in the API's order within each pair, not stated first.
    const checks = (await api(`/api/runs/${enc(run)}/samples/${enc(whySample)}`)).checks;
    assert.ok(checks.length >= 1, 'the answer has names or values to check');
    assert.equal(await page.locator('#why tr.check-line').count(), checks.length, 'a row per check');
    const shown = await page.locator('#why tr.check-line').evaluateAll((rows) => rows.map((r) => r.dataset.verdict));
    for (const pair of new Set(checks.map((c) => c.pair))) {
      const oks = checks.filter((c) => c.pair === pair).map((c) => c.ok);
      assert.deepEqual(oks, [...oks].sort((a, b) => a - b), `${pair}: not stated first`);
    }
    assert.equal(shown.filter((v) => v === 'supported').length, checks.filter((c) => c.ok).length, 'stated rows green');
    assert.deepEqual(await page.locator('#dropped del').allTextContents(), ['(Acme; is sold on; the Moon)'], 'the dropped triplet struck through');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no wider than the viewport');
    await page.locator('#why').screenshot({ path: `${shots}/sample-why.png` });

    // A 10,000-character word in the evidence sentence wraps.
    await page.goto(`${base}/runs/${enc(run)}/samples/${enc(longSample)}`);
    await page.waitForSelector('#why mark');
    const mark = await page.locator('#why mark').first().evaluate((e) => ({ n: e.textContent.length, right: e.getBoundingClientRect().right }));
    assert.ok(mark.n > 10000, `the long sentence is shown whole (${mark.n} characters)`);
    const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: window.innerWidth }));
    assert.ok(width.scroll <= width.view && mark.right <= width.view, `page ${width.scroll}px, mark to ${mark.right}px, viewport ${width.view}px`);
  });

  await step('CypherConsole', async () => {
    await page.goto(base + '/cypher');
    const q = `MATCH (e:Entity {run: '${run}', sample: '${sample}', pair: '${pair}'})-[r]->(x)\nRETURN e, r, x`;
    await page.fill('#query', q);
    assert.ok(await page.locator('#highlight .tk-keyword').count() >= 2, 'keywords highlighted');
    await page.click('#run-query');
    await page.waitForSelector('#result-table tbody tr');
    const rows = await page.locator('#result-table tbody tr').count();
    assert.equal(rows, graph.edges.filter((e) => graph.nodes[e.from].kind === 'entity').length, 'one row per edge out of an entity');
    await page.waitForFunction(() => window.cyConsole && window.cyConsole.nodes().length > 0);
    await page.screenshot({ path: `${shots}/cypher.png`, fullPage: true });
    expectRefusal = true;
    await page.fill('#query', 'MATCH (n) DETACH DELETE n');
    await page.click('#run-query');
    await page.waitForSelector('#query-error:not([hidden])');
    assert.match(await page.textContent('#query-error'), /refused/);
    expectRefusal = false;
    await page.fill('#query', `PROFILE MATCH (e:Entity {run: '${run}'}) RETURN count(e) AS entities`);
    await page.click('#run-query');
    await page.waitForSelector('#result-plan:not([hidden])');
    assert.match(await page.textContent('#result-plan'), /ProduceResults/, 'PROFILE shows the plan');
    assert.equal(await page.locator('#result-table tbody tr').count(), 1, 'PROFILE returns the rows too');
  });

  await step('Sensitivity', async () => {
    // Linked from the runs list; the page shows the numbers the command
    // wrote (exactly, through the API) and printed (the table's cells).
    const sensReport = JSON.parse(readFileSync(process.env.KGEVAL_SENS_JSON, 'utf8'));
    const sensPrinted = readFileSync(process.env.KGEVAL_SENS_LOG, 'utf8');
    await page.goto(base + '/');
    const link = page.locator(`#runs a.sensitivity-link[href="/runs/${enc(sens)}/sensitivity"]`);
    assert.equal(await link.count(), 3, 'each run of the experiment links to it');
    await Promise.all([page.waitForURL(`**/runs/${enc(sens)}/sensitivity`), link.first().click()]);
    await page.waitForSelector('#sensitivity-histograms .chart canvas');
    const got = await api(`/api/runs/${enc(sens)}/sensitivity`);
    assert.deepEqual(got.metrics, sensReport.metrics, 'API numbers are the report kgeval sensitivity wrote');
    assert.deepEqual(got.runs.map((r) => r.run), ['original', 'reference_as_answer', 'wrong_answer'].map((v) => sensReport.runs[v]));
    const rows = await page.locator('#sensitivity-table tbody tr').count();
    assert.equal(rows, sensReport.metrics.length, 'a row per metric');
    // The printed table: metric, three "mean ± std (n)" cells, AUROC, d.
    const names = new Set(sensReport.metrics.map((m) => m.metric));
    const printed = sensPrinted.split('\n').filter((l) => names.has(l.split(/\s{2,}/)[0]));
    assert.equal(printed.length, sensReport.metrics.length, 'printed rows');
    for (const line of printed) {
      const cols = line.split(/\s{2,}/);
      const tr = page.locator(`#sensitivity-table tr[data-metric="${cols[0]}"]`);
      const cells = (await tr.locator('td').allTextContents()).map((c) => c.trim());
      for (let k = 1; k <= 3; k++) assert.ok(cells[k].startsWith(cols[k]), `${cols[0]} ${k}: page ${cells[k]}, printed ${cols[k]}`);
      assert.equal(cells[4], cols[4] === '-' ? 'null' : cols[4], `${cols[0]} AUROC`);
      assert.equal(cells[5], cols[5] === '-' ? 'null' : cols[5], `${cols[0]} Cohen's d`);
    }
    const charts = await page.evaluate(() => window.kgSensitivity.charts().map((c) => c.getOption().series.map((s) => s.data)));
    assert.equal(charts.length, sensReport.metrics.length, 'a histogram chart per metric');
    for (const [i, m] of sensReport.metrics.entries()) {
      assert.deepEqual(charts[i], m.variants.map((v) => v.histogram.Counts), `${m.metric} histograms`);
    }
    await page.screenshot({ path: `${shots}/sensitivity.png`, fullPage: true });
  });

  await runVsRun();
  await jobs();

  await hostileText();

  await step('NoErrors', async () => {
    assert.deepEqual(problems, []);
  });
} catch (e) {
  // A failed step has reported itself; anything else was thrown outside
  // every step (starting the browser, a helper between steps).
  if (!(e instanceof StepFailed)) {
    outside = e;
    console.log(`--- FAIL: browser/OutsideAStep: thrown outside any step: ${e.stack || e}`);
  }
} finally {
  try {
    await browser?.close();
  } catch (e) {
    outside ??= e;
    console.log(`--- FAIL: browser/OutsideAStep: closing the browser: ${e.stack || e}`);
  }
  const notRun = plan.filter((name) => !ran.has(name));
  console.log(`browser: ${ran.size} of ${plan.length} steps run, ${passed} passed, ${failed} failed` +
    (outside ? `, thrown outside a step: ${outside.message || outside}` : '') +
    (notRun.length ? `; not run: ${notRun.join(', ')}` : ''));
  process.exitCode = failed > 0 || outside || notRun.length > 0 ? 1 : 0;
}
