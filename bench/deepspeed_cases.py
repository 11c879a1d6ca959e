"""Regenerate tests/core/model_states/data/deepspeed_estimator_cases.json from DeepSpeed itself.

Needs a Python that can import deepspeed (which imports torch), e.g.::

    pip download --no-deps deepspeed && pip install --target /tmp/ds deepspeed-*.tar.gz
    PYTHONPATH=/tmp/ds python-with-torch bench/deepspeed_cases.py

It calls DeepSpeed's own estimate_zero2_model_states_mem_needs and estimate_zero3_model_states_mem_needs on
fixed pseudo-random inputs and records their outputs, which tests/core/model_states/test_deepspeed.py then compares with
vramgui's deepspeed convention, to the byte. Not part of the app or of `make test`.
"""

import json
import random
from pathlib import Path

import deepspeed
from deepspeed.runtime.zero.stage3 import estimate_zero3_model_states_mem_needs
from deepspeed.runtime.zero.stage_1_and_2 import estimate_zero2_model_states_mem_needs

OUT = Path(__file__).resolve().parent.parent / "tests" / "core" / "data" / "deepspeed_estimator_cases.json"


def main() -> None:
    random.seed(20261130)
    cases = []
    for _ in range(40):
        P = random.choice([random.randint(10**6, 10**12), 124_439_808, 6_738_415_616, 70_553_706_496, 2851 * 10**6])
        L = random.randint(0, min(P, 10**9))
        gpn = random.choice([1, 2, 4, 8, 16])
        nodes = random.choice([1, 1, 2, 4, 16])
        co, cop, zi = random.random() < .5, random.random() < .5, random.random() < .5
        if not co:
            cop = False
        cpu, gpu, llm = estimate_zero3_model_states_mem_needs(P, L, gpn, nodes, co, cop, zi)
        cases.append({"stage": 3, "total_params": P, "largest_layer_params": L, "num_gpus_per_node": gpn,
                      "num_nodes": nodes, "cpu_offload": co, "cpu_offload_params": cop, "zero_init": zi,
                      "cpu_mem": cpu, "gpu_mem": gpu, "largest_layer_memory": llm})
        cpu, gpu = estimate_zero2_model_states_mem_needs(P, gpn, nodes, co)
        cases.append({"stage": 2, "total_params": P, "num_gpus_per_node": gpn, "num_nodes": nodes,
                      "cpu_offload": co, "cpu_mem": cpu, "gpu_mem": gpu})
    OUT.write_text(json.dumps({"deepspeed_version": deepspeed.__version__, "cases": cases}, indent=1) + "\n")


if __name__ == "__main__":
    main()
