"""Mutates AnyDice programs (token soups, and corpus programs with tokens
inserted) and runs each through `fairdice anydice`; any exit but 0 or 1,
or a run past 20 s, is a problem.

    python3 benches/anydice/mutate.py CORPUS.jsonl.gz [BINARY]
"""
import random, subprocess, json, sys

from corpus import load

random.seed(7)
progs=[c["program"] for c in load(sys.argv[1])]
toks=["output","d","{","}","[","]","(",")",",",":","..","+","-","*","/","^","@","#","!","=","!=","<",">","<=",">=","&","|","X","Y","N","function:","result:","if","else","loop","over","set","\"explode depth\"","\"position order\"","to","named","\"[X]\"","0","1","6","20","1000000","9223372036854775807","\\","highest","of","and","in","count","explode","d{}","{}","ROLL:s","A:n","D:d"]
bad=0
for i in range(3000):
    if i%2==0:
        p=" ".join(random.choice(toks) for _ in range(random.randint(1,40)))
    else:
        base=random.choice(progs); k=random.randint(0,max(0,len(base)-1))
        cut=list(base)
        for _ in range(random.randint(1,5)):
            j=random.randint(0,len(cut)); cut.insert(j, random.choice(toks)+" ")
        p="".join(cut)
    try:
        r=subprocess.run([sys.argv[2] if len(sys.argv) > 2 else "target/release/fairdice","--quiet","anydice","--json","--budget","0.05","-"],input=p,capture_output=True,text=True,timeout=20)
        if r.returncode not in (0,1):
            bad+=1; print("EXIT",r.returncode,repr(p)[:300],r.stderr[:300])
    except subprocess.TimeoutExpired:
        bad+=1; print("HANG",repr(p)[:300])
print("cases 3000, problems",bad)
