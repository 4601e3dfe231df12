import sys, glob, collections
# rows: (name, case) -> {variant: [ms...]}
d = collections.defaultdict(lambda: collections.defaultdict(list))
for path in sys.argv[1:]:
    var = path.split('/')[-1].rsplit('-', 1)[0]
    for line in open(path, errors='replace'):
        if not line.startswith('RESULT'): continue
        f = line.rstrip('\n').split('\t')
        name, case, ms, extra = f[2], f[3], float(f[5]), f[7] if len(f) > 7 else ''
        if 'memory' in name:
            d[(name, case)][var].append(float(f[6]) if name == 'set_memory_ratio' else float(f[7]))
        else:
            d[(name, case)][var].append(ms)
vars_ = ['base', 'new', 'plain']
print(f"{'row':<34}" + ''.join(f"{v:>12}" for v in vars_) + "   new/base")
for (name, case), v in sorted(d.items(), key=lambda x: (x[0][1], x[0][0])):
    vals = [min(v[x]) if v[x] else float('nan') for x in vars_]
    r = vals[1] / vals[0] if vals[0] else float('nan')
    print(f"{name + ' ' + case:<34}" + ''.join(f"{x:>12.4f}" for x in vals) + f"   {r:.3f}")
