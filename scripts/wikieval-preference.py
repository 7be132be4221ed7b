"""WikiEval pairwise preference table from `kgeval compare --json F`.

Usage: python3 scripts/wikieval-preference.py F.json

For every metric: the win rate (ties count 1/2) of wikieval_grounded over
wikieval_ungrounded (what faithfulness metrics should prefer) and over
wikieval_poor (what relevance metrics should prefer), with wins/ties/losses
and the number of questions both answers have a value for. It only
reformats compare's `differences`; compare computes the win rates.
"""
import json,sys
d=json.load(open(sys.argv[1]))
G,U,P='wikieval_grounded','wikieval_ungrounded','wikieval_poor'
rows={}
for x in d['differences']:
    a,b=x['a'],x['b']; wr=x.get('win_rate')
    if wr is None: continue
    w,t,l=x['wins'],x['ties'],x['losses']
    if a==G and b in (U,P): pass
    elif b==G and a in (U,P): a,b=b,a; wr=1-wr; w,l=l,w
    else: continue
    rows.setdefault(x['metric'],{})[b]=(wr,w,t,l,x['shared'])
print("metric                                    grounded>ungrounded    w/t/l  grounded>poor    w/t/l  n")
for m in sorted(rows):
    r=rows[m]; u=r.get(U); p=r.get(P)
    f=lambda v: ("%.3f"%v[0]).rjust(8)+("%d/%d/%d"%v[1:4]).rjust(9) if v else " "*17
    n=max((v[4] for v in (u,p) if v),default=0)
    print(m.ljust(40),f(u).rjust(21),f(p).rjust(24),n)
