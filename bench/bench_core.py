"""Core and CLI latency: one full estimate, a 1,024-point sweep, the adviser, the CLI's whole process.

For comparison, DeepSpeed's estimator takes about 1.7 s and 240 MiB as a whole process here (it imports
torch); the issue asks for the CLI to be at least 10x faster.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from vramgui.core import estimate as estimate_mod
from vramgui.core.advise.suggestions import advise
from vramgui.core.estimate import Estimate, estimate
from vramgui.core.parallel import world
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, ParallelSpec, Scenario, TrainingSpec
from vramgui.core.solve.questions import max_params, solve_base
from vramgui.core.solve.sweep import gpu_sweep as core_gpu_sweep
from vramgui.core.solve.sweep import peak_sweep as core_peak_sweep

ROOT = Path(__file__).resolve().parent.parent
DEEPSPEED_PROCESS_S = 1.7
LLAMA_7B = Scenario(
    model=ModelSpec(name="llama-2-7b", architecture=Architecture()),
    training=TrainingSpec(micro_batch=4, seq_len=4096),
    parallel=ParallelSpec(num_gpus=8, zero_stage=3),
    hardware=HardwareSpec(gpu_memory=80 * 10**9, reserve=0.1),
)

# The same run with an H100 SXM's compute figures (resources/presets/gpus.json): the estimate with its step time
TIMED = Scenario(model=LLAMA_7B.model, training=LLAMA_7B.training, parallel=LLAMA_7B.parallel,
                 hardware=HardwareSpec(gpu_memory=80 * 10**9, reserve=0.1, tflops_16bit=989.4,
                                       memory_bandwidth=3_350 * 10**9, link_bandwidth=450 * 10**9))

SOLVABLE = Scenario(model=LLAMA_7B.model, training=TrainingSpec(micro_batch=1, seq_len=2048),
                    parallel=LLAMA_7B.parallel, hardware=LLAMA_7B.hardware)


# The adviser (vramgui.core.advise.suggestions) runs with every recompute of a scenario that does not fit: the issue's
# example (a 7-8B model in bf16 mixed Adam on one 24 GiB card) and an activation-bound run on 8 x 80 GB.
ONE_CARD = Scenario(model=LLAMA_7B.model, hardware=HardwareSpec(gpu_memory=24 * 2**30))
ACTIVATION_BOUND = Scenario(model=LLAMA_7B.model, training=TrainingSpec(micro_batch=8, seq_len=8192),
                            parallel=ParallelSpec(num_gpus=8, zero_stage=3),
                            hardware=HardwareSpec(gpu_memory=80 * 10**9))


def _fresh_advice(scenario: Scenario) -> None:
    estimate_mod.clear_activation_cache()  # cold: the activations of every value tried are computed afresh
    assert advise(scenario)


def _median_seconds(fn, repeat: int, clock=time.perf_counter) -> float:
    times = []
    for _ in range(repeat):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times)


def _median_cpu(fn, repeat: int, inner: int = 1) -> float:
    """Median CPU seconds of ``fn`` (of one of ``inner`` calls timed together: a call shorter than the clock's
    resolution): on a shared machine the CPU time is what the code itself costs."""
    return _median_seconds(lambda: [fn() for _ in range(inner)], repeat, time.process_time) / inner


def fresh_estimate() -> None:
    """The issue's "one full estimate": the per-layout activation estimate forgotten each time (the stage sum is
    computed again); what depends on the model alone (its counts, the per-shape activation terms) is kept, as it
    is between two edits of the window."""
    estimate_mod.clear_activation_cache()
    estimate(LLAMA_7B)


_LENGTHS = iter(range(1024, 10**9, 8))


def new_shape_estimate() -> None:
    """A scenario never seen before: a new sequence length each call (every activation term computed afresh, the
    scenario validated): what an edit of the sequence length costs."""
    estimate(replace(LLAMA_7B, training=replace(LLAMA_7B.training, seq_len=next(_LENGTHS))))


def cold_estimate() -> None:
    """Every cache forgotten: the first estimate of a model (its counts, its terms, the validation)."""
    estimate_mod.clear_caches()
    estimate(LLAMA_7B)


def _fresh_timed_estimate() -> None:
    estimate_mod.clear_activation_cache()  # the FLOPs per token stay cached: they depend on the architecture alone
    estimate(TIMED)


def _fresh_timed_estimate_read() -> None:
    """The same with its step time read (``Estimate.time`` is computed when first read)."""
    estimate_mod.clear_activation_cache()
    assert estimate(TIMED).time is not None


DS_SCRIPT = ("from deepspeed.runtime.zero.stage3 import estimate_zero3_model_states_mem_needs_all_cold as f;"
             "f(total_params=7e9, largest_layer_params=131e6, num_gpus_per_node=8, num_nodes=1)")


def _child_env(pythonpath: str | None = None) -> dict[str, str]:
    """This environment with bytecode caching on (as an installed app runs: PYTHONDONTWRITEBYTECODE would make every
    start compile the sources again) and the tree under test first on the path."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPATH": pythonpath or str(ROOT)}


def _cli_seconds(cmd: list[str], repeat: int = 9, pythonpath: str | None = None) -> tuple[float, float]:
    env = _child_env(pythonpath)
    median = _median_seconds(lambda: subprocess.run(cmd, check=True, capture_output=True, env=env, cwd=ROOT),
                             repeat)
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return median, peak_kib / 1024


def paired_start_up(cmd: list[str], floor: list[str], pairs: int = 15) -> tuple[float, float, float]:
    """(median of ``cmd``, median of ``floor``, median of the per-pair ratios), in seconds: each pair runs the two
    back to back (order alternating), so a load that comes and goes on a shared machine weighs on both alike.
    One unmeasured run of each first writes the bytecode caches."""
    env = _child_env()

    def seconds(argv: list[str]) -> float:
        t0 = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True, env=env, cwd=ROOT)
        return time.perf_counter() - t0

    seconds(cmd), seconds(floor)
    runs, floors, ratios = [], [], []
    for i in range(pairs):
        if i % 2:
            b = seconds(floor)
            a = seconds(cmd)
        else:
            a = seconds(cmd)
            b = seconds(floor)
        runs.append(a)
        floors.append(b)
        ratios.append(a / b)
    return statistics.median(runs), statistics.median(floors), statistics.median(ratios)


def gpu_sweep(scenario: Scenario, bound: int) -> list[tuple[int, Estimate | None]]:
    """(GPU count, Estimate) for every count up to ``bound`` the layout accepts (``world.accepted_counts``), the
    global batch dropped as the solvers drop it (it need not divide): the core's sweep, which the window's
    *By GPU count* chart uses (``vramgui.core.solve.sweep``)."""
    return core_gpu_sweep(scenario, world.accepted_counts(solve_base(scenario, "parallel.num_gpus"), bound))


def peak_sweep(scenario: Scenario, bound: int) -> list[tuple[int, int | None]]:
    """The step peak at every count up to ``bound`` the layout accepts: what *By GPU count* draws
    (``vramgui.core.solve.sweep.peak_sweep``), each estimate's other figures left out."""
    return core_peak_sweep(scenario, world.accepted_counts(solve_base(scenario, "parallel.num_gpus"), bound))


def _scenario(argv: str) -> Scenario:
    from vramgui.cli.options import scenario_from_args
    from vramgui.cli.parser import build_parser

    return scenario_from_args(build_parser("estimate").parse_args(["estimate", *argv.split()]))


# issue 22: the fastest-plan search on the two runs and on 1,024 GPUs, and the adviser on its Mixtral example
PLAN_RUNS = (
    ("solve fastest: Llama-3-8B, 16 x H100, 8,192 tokens, batch 128 (issue 22 asks < 2 s for 64 GPUs)",
     "--preset llama-3-8b --gpu h100-sxm --gpus 16 --seq-len 8192 --global-batch 128"),
    ("solve fastest: Llama-3-70B, 64 x H100, 8,192 tokens, batch 128 (issue 22 asks < 2 s)",
     "--preset llama-3-70b --gpu h100-sxm --gpus 64 --seq-len 8192 --global-batch 128"),
    ("solve fastest: Llama-3-70B, 1,024 x H100, 8,192 tokens, batch 1,024 (issue 22 asks < 10 s)",
     "--preset llama-3-70b --gpu h100-sxm --gpus 1024 --seq-len 8192 --global-batch 1024"),
    # the spaces with experts (ep 1-8 on top of tp, cp, pp) and with a long sequence (cp)
    ("solve fastest: Mixtral 8x7B, 64 x A100 80GB, 8,192 tokens, batch 256 (ep searched; < 2 s asked for 64)",
     "--preset mixtral-8x7b --gpu a100-80gb --gpus 64 --seq-len 8192 --global-batch 256"),
    ("solve fastest: Mixtral 8x7B, 1,024 x H100, 8,192 tokens, batch 1,024 (ep searched; < 10 s asked)",
     "--preset mixtral-8x7b --gpu h100-sxm --gpus 1024 --seq-len 8192 --global-batch 1024"),
    ("solve fastest: Llama-3-8B, 64 x H100, 131,072 tokens, batch 16 (cp searched; < 2 s asked for 64)",
     "--preset llama-3-8b --gpu h100-sxm --gpus 64 --seq-len 131072 --global-batch 16"),
)
MIXTRAL = "--preset mixtral-8x7b --gpu a100-80gb --gpus 8 --seq-len 8192"
LONG_CONTEXT = "--preset llama-3-8b --gpu h100-sxm --gpus 8 --seq-len 65536"  # the adviser's context parallelism


def _wall_and_cpu(fn, repeat: int) -> tuple[float, float]:
    """Median wall and CPU seconds: on a shared machine the CPU time is what the search itself costs."""
    walls, cpus = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus)


def plan_rows(repeat: int = 3) -> list[tuple[str, float, str]]:
    from vramgui.core.solve.fastest import fastest

    rows = []
    for label, argv in PLAN_RUNS:
        s = _scenario(argv)
        wall, cpu = _wall_and_cpu(lambda s=s: fastest(s, s.parallel.num_gpus), repeat)
        rows += [(label, wall * 1e3, f"ms wall (median of {repeat})"), ("  the same, CPU time", cpu * 1e3, "ms")]
    for label, argv in (("adviser: Mixtral 8x7B, 8 x A100 80GB, 8,192 tokens (issue 22 asks <= 50 ms)", MIXTRAL),
                        ("adviser: Llama-3-8B, 8 x H100, 65,536 tokens (issue 22 asks <= 50 ms)", LONG_CONTEXT)):
        s = _scenario(argv)
        wall, cpu = _wall_and_cpu(lambda s=s: _fresh_advice(s), 10)
        rows += [(label, wall * 1e3, "ms wall (median of 10)"), ("  the same, CPU time", cpu * 1e3, "ms")]
    return rows


def run() -> list[tuple[str, float, str]]:
    one = _median_cpu(fresh_estimate, 21, inner=50)
    timed = _median_cpu(_fresh_timed_estimate, 21, inner=50)
    timed_read = _median_cpu(_fresh_timed_estimate_read, 21, inner=50)
    new_shape = _median_cpu(new_shape_estimate, 21, inner=50)
    cold = _median_cpu(cold_estimate, 21, inner=10)
    sweep = _median_cpu(lambda: gpu_sweep(LLAMA_7B, 1024), 7)
    peaks = _median_cpu(lambda: peak_sweep(LLAMA_7B, 1024), 7)
    solve = _median_cpu(lambda: max_params(SOLVABLE), 20)
    advice_card = _median_cpu(lambda: _fresh_advice(ONE_CARD), 20)
    advice_acts = _median_cpu(lambda: _fresh_advice(ACTIVATION_BOUND), 20)
    args = ["-m", "vramgui", "estimate", "--params", "7B", "--gpus", "8", "--stage", "3", "--json"]
    cli, rss = _cli_seconds([sys.executable, *args])
    bare, _ = _cli_seconds([sys.executable, "-I", "-S", "-c", "import sys; sys.path.insert(0, '.');"
                            "from vramgui.__main__ import main; sys.exit(main(sys.argv[1:]))", *args[2:]])
    python_only, _ = _cli_seconds([sys.executable, "-c", "pass"])
    paired_cli, paired_floor, ratio = paired_start_up(
        [sys.executable, "-m", "vramgui", "estimate", "--preset", "llama-3-8b", "--gpus", "8", "--json"],
        [sys.executable, "-c", "pass"])
    rows = [
        ("one full estimate (Llama-2-7B arch, activations; issue 26 asks 5x)", one * 1e3, "ms CPU (median)"),
        ("the same on an H100 (its step time computed when read)", timed * 1e3, "ms CPU (median)"),
        ("the same, its step time read (issue 21 asks <= 1 ms)", timed_read * 1e3, "ms CPU (median)"),
        ("one estimate, new sequence length each time (new shape)", new_shape * 1e3, "ms CPU (median)"),
        ("one estimate, every cache cold (a new model)", cold * 1e3, "ms CPU (median)"),
        ("1,024-point GPU-count sweep, the estimates kept", sweep * 1e3, "ms CPU (median of 7)"),
        ("1,024-point sweep of the step peak (By GPU count; issue asks <= 50 ms)", peaks * 1e3,
         "ms CPU (median of 7)"),
        ("max_params solve (bisection)", solve * 1e3, "ms CPU (median of 20)"),
        ("adviser: Llama-2-7B on 1 x 24 GiB (cold cache)", advice_card * 1e3, "ms CPU (median of 20)"),
        ("adviser: Llama-2-7B, 8 x 80 GB, 8 x 8,192 tokens (cold cache)", advice_acts * 1e3,
         "ms CPU (median of 20)"),
        ("CLI estimate, whole process (this venv)", cli * 1e3, "ms (median of 9)"),
        ("CLI estimate, whole process (python -I -S, no site)", bare * 1e3, "ms (median of 9)"),
        ("python -c pass in this venv (interpreter floor)", python_only * 1e3, "ms (median of 9)"),
        ("paired: CLI estimate --preset llama-3-8b --gpus 8 --json", paired_cli * 1e3, "ms (median of 15 pairs)"),
        ("paired: python -c pass, same venv", paired_floor * 1e3, "ms (median of 15 pairs)"),
        ("paired: CLI estimate / python -c pass (issue 20 asks <= 2)", ratio, "x (median of pair ratios)"),
        *plan_rows(),
        ("CLI peak RSS of any child process", rss, "MiB"),
        ("speed-up vs DeepSpeed's 1.7 s process (issue's figure)", DEEPSPEED_PROCESS_S / cli, "x"),
    ]
    # Optional: DeepSpeed's own estimator as a whole process, under the same load as the rows above.
    # VRAMGUI_BENCH_DS_PYTHON = a python with torch; VRAMGUI_BENCH_DS_PATH = where deepspeed is installed.
    ds_python = os.environ.get("VRAMGUI_BENCH_DS_PYTHON")
    if ds_python:
        ds, ds_rss = _cli_seconds([ds_python, "-c", DS_SCRIPT], repeat=3,
                                  pythonpath=os.environ.get("VRAMGUI_BENCH_DS_PATH", ""))
        cli_now, _ = _cli_seconds([sys.executable, *args], repeat=5)
        rows += [("DeepSpeed estimator, whole process (measured now)", ds * 1e3, "ms (median of 3)"),
                 ("peak RSS of any child so far", ds_rss, "MiB"),
                 ("speed-up vs DeepSpeed measured now", ds / cli_now, "x")]
    return rows
