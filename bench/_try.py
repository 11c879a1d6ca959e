import sys
import time

from vramgui.cli.options import scenario_from_args
from vramgui.cli.parser import build_parser
from vramgui.core.solve.fastest import fastest

for argv, n in [("estimate --preset llama-3-70b --gpu h100-sxm --gpus 64 --seq-len 8192 --global-batch 128", 64),
                ("estimate --preset llama-3-8b --gpu h100-sxm --gpus 16 --seq-len 8192 --global-batch 128", 16)]:
    s = scenario_from_args(build_parser("estimate").parse_args(argv.split()+sys.argv[1:]))
    t=time.perf_counter()
    r = fastest(s, n)
    dt=time.perf_counter()-t
    print(f"{dt:.2f}s layouts={r.layouts} estimated={r.estimated} points={len(r.points)}")
    for p in (r.best, *r.alternatives):
        print(" ", p.plan.layout, p.plan.recompute, p.plan.strategy.key, round(p.seconds,3), round(p.peak/1e9,2))
