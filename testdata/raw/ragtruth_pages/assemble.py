#!/usr/bin/env python3
"""Assemble unsolitude/RAGproject @d714c5d data/ragtruth/processed/qa_train_500_seed2026.jsonl
from pages copied out of the code index (read_file, 16,000 characters a page).

Each pNNN.txt holds one page as the index returned it: the JSON-string-escaped
text (one line). A placeholder <<CTX:SOURCEID>> stands for the "contexts" array
of the earliest previous line with that source_id (RAGTruth gives every
response of a source the same three passages), typed once only. Every page
is checked for its exact length (16,000 characters, the last 1,304,217 mod 16,000).
"""
import glob, json, os, re, sys

TOTAL = 1304217
PAGE = 16000
here = os.path.dirname(os.path.abspath(__file__))
ph = re.compile(r'<<CTX:(\d+)>>')

def index(text, ctx):
    """ctx[source_id] = the contexts array of the first line giving it whole."""
    for line in text.split('\n'):
        m = re.search(r'"source_id": "(\d+)"', line)
        c = re.search(r'"contexts": (\[.*\]), "answer": ', line)
        if m and c and m.group(1) not in ctx:
            ctx[m.group(1)] = c.group(1)


def main():
    files = sorted(glob.glob(os.path.join(here, 'p[0-9][0-9][0-9].txt')))
    text = ''
    ctx = {}
    ok = True
    for i, f in enumerate(files):
        n = int(os.path.basename(f)[1:4])
        if n != i:
            print('missing page', i); ok = False; break
        s = open(f, encoding='utf-8').read().rstrip('\n')
        try:
            raw = json.loads('"' + s + '"')
        except Exception as e:
            print(f, 'does not decode:', e); ok = False; break
        while True:
            m = ph.search(raw)
            if not m:
                break
            sid = m.group(1)
            if sid not in ctx:
                index(text + raw[:m.start()], ctx)
            if sid not in ctx:
                print(f, 'no earlier contexts for source', sid); return 1
            raw = raw[:m.start()] + ctx[sid] + raw[m.end():]
        want = min(PAGE, TOTAL - n * PAGE)
        if len(raw) != want:
            print(f'{f}: {len(raw)} characters, want {want}'); ok = False; break
        text += raw
        index(text, ctx)
    lines = text.split('\n')
    complete = lines[:-1] if not text.endswith('\n') else lines[:-1]
    print(f'{len(files)} pages, {len(text)} characters, {len(complete)} complete lines')
    bad = 0
    for k, line in enumerate(complete):
        r = json.loads(line)
        for sp in r['gold_spans']:
            if r['answer'][sp['start']:sp['end']] != sp['text']:
                bad += 1; print('line', k + 1, 'span mismatch', sp['start'], sp['end'])
    print('span mismatches:', bad)
    if len(sys.argv) > 1:
        with open(sys.argv[1], 'w', encoding='utf-8', newline='') as out:
            out.write(''.join(l + '\n' for l in complete) if len(text) < TOTAL else text)
        print('wrote', sys.argv[1])
    return 0 if ok else 1

if __name__ == '__main__':
    sys.exit(main())
