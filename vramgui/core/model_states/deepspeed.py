"""The ``deepspeed`` convention: what DeepSpeed's model-state estimators compute, GPU and host per node.

Sources (DeepSpeed, MIT licence), reproduced expression for expression so results match to the byte:

* ``deepspeed/runtime/zero/stage_1_and_2.py`` ``estimate_zero2_model_states_mem_needs``:
  offload: GPU 2Φ, CPU Φ·max(4·total_gpus, 16)·1.5; no offload: GPU 2Φ + int(18Φ/N)
  (2 = 16-bit params; 18 = 2 16-bit grads + 4 fp32 grads + 4 fp32 params + 8 Adam states), CPU Φ·4·n_gpus·1.5
  (model initialised in fp32 on the host by every local rank). DeepSpeed's docs page "Memory Requirements"
  still prints the older 4Φ + 16Φ/N (15.93 GB for its 2851M / 8-GPU example; the code gives 11.28 GB).
* ``deepspeed/runtime/zero/stage3.py`` ``estimate_zero3_model_states_mem_needs``: largest_layer_memory =
  4·L (16-bit params gathered + 16-bit grads of the largest layer); no offload: 4L + int(18Φ/N); optimizer
  offload: 4L + int(2Φ/N); optimizer + parameter offload: 4L; CPU per node depends on zero_init
  (gpus_factor = 1/num_nodes, additional_buffer_factor = 1.5).

DeepSpeed publishes one estimator for stages 1 and 2 (same module) and none for stage 0; stage 0 here is its
stage-1/2 bytes with nothing partitioned (2Φ + 18Φ). DeepSpeed assumes fp16/bf16 mixed precision with Adam.

Under tensor/pipeline parallelism the estimators see one model-parallel rank: Megatron-DeepSpeed runs ZeRO over
the data-parallel group of a model whose layers are already split (``mpu`` passed to ``deepspeed.initialize``),
and ``estimate_zero3_model_states_mem_needs_all_live`` takes Φ and the largest layer from that rank's modules
(``sum(p.numel() for p in m.parameters(recurse=False))``). Megatron shards every large module by TP
(``VocabParallelEmbedding``: vocab/tp rows; ``ColumnParallelLinear``/``RowParallelLinear``: one dimension/tp),
so the largest layer a rank gathers is ⌈L/tp⌉; pipeline stages keep whole layers, so L itself stays the
largest one the stage may hold. Where ZeRO-3's fixed 4L term is more than what sharding the 16-bit parameters
saves (4L/tp > 2Φ - 2Φ/N_d without offload), ZeRO-3 really needs more than ZeRO-2: a note says so.
"""

from __future__ import annotations

from vramgui.core.model_states.paper import ModelStates, Part
from vramgui.core.scenario.choices import DType, Optimizer, Recipe
from vramgui.core.scenario.specs import PrecisionSpec
from vramgui.core.terms import Derivation, Term
from vramgui.core.text.message import Msg

ADDITIONAL_BUFFER_FACTOR = 1.5
SRC2 = "DeepSpeed stage_1_and_2.py estimate_zero2_model_states_mem_needs"
SRC3 = "DeepSpeed stage3.py estimate_zero3_model_states_mem_needs"


def estimate_zero2(total_params: int, num_gpus_per_node: int = 1, num_nodes: int = 1, cpu_offload: bool = True,
                   additional_buffer_factor: float = ADDITIONAL_BUFFER_FACTOR,
                   total_gpus: int | None = None) -> tuple[int, int]:
    """(cpu_mem, gpu_mem) exactly as DeepSpeed's estimate_zero2_model_states_mem_needs.

    ``total_gpus`` (default num_nodes x num_gpus_per_node, as DeepSpeed) lets the caller divide by the
    data-parallel size when tensor/pipeline parallelism or a partial node makes it differ.
    """
    if total_gpus is None:
        total_gpus = num_nodes * num_gpus_per_node
    if cpu_offload:
        gpu_mem = 2 * total_params
        cpu_mem = total_params * max(4 * total_gpus, 16) * additional_buffer_factor
    else:
        gpu_mem = 2 * total_params + int(18 * total_params / total_gpus)
        cpu_mem = total_params * 4 * num_gpus_per_node * additional_buffer_factor
    return int(cpu_mem), int(gpu_mem)


def estimate_zero3(total_params: int, largest_layer_params: int, num_gpus_per_node: int = 1, num_nodes: int = 1,
                   cpu_offload: bool = True, cpu_offload_params: bool = True, zero_init: bool = True,
                   additional_buffer_factor: float = ADDITIONAL_BUFFER_FACTOR,
                   total_gpus: int | None = None) -> tuple[int, int, int]:
    """(cpu_mem, gpu_mem, largest_layer_memory) exactly as DeepSpeed's estimate_zero3_model_states_mem_needs."""
    if total_gpus is None:
        total_gpus = num_nodes * num_gpus_per_node
    gpus_factor = 1 / num_nodes
    largest_layer_memory = 4 * largest_layer_params
    if cpu_offload:
        if cpu_offload_params:
            gpu_mem = largest_layer_memory
            if zero_init:
                cpu_mem = total_params * 18 * gpus_factor * additional_buffer_factor
            else:
                cpu_mem = total_params * max(4 * num_gpus_per_node, 18 * gpus_factor) * additional_buffer_factor
        else:
            gpu_mem = largest_layer_memory + int(2 * total_params / total_gpus)
            if zero_init:
                cpu_mem = total_params * 16 * gpus_factor * additional_buffer_factor
            else:
                cpu_mem = total_params * max(4 * num_gpus_per_node, 16 * gpus_factor) * additional_buffer_factor
    else:
        gpu_mem = largest_layer_memory + int(18 * total_params / total_gpus)
        if zero_init:
            cpu_mem = largest_layer_params * 4 * num_gpus_per_node * additional_buffer_factor
        else:
            cpu_mem = total_params * 4 * num_gpus_per_node * additional_buffer_factor
    return int(cpu_mem), int(gpu_mem), int(largest_layer_memory)


def _div(coef: int, phi: int, n: int) -> int:
    return int(coef * phi / n)  # DeepSpeed's own rounding: int() of a float division


def _sharded(coef: int, phi: int, n: int, source: str) -> Part:
    """int(coef·Φ / N), as DeepSpeed rounds it."""
    value = _div(coef, phi, n)
    return Part(value, Derivation((Term(value, coef, "Φ", phi, n, "N_d", rounding="int"),), value), source)


def _optimizer(value: int, phi: int, n: int, minus: tuple[tuple[str, int], ...], source: str) -> Part:
    """DeepSpeed's int(18Φ/N) less what the other components hold; the formula is the 12Φ/N_d left over."""
    terms = (Term(_div(18, phi, n), 18, "Φ", phi, n, "N_d", rounding="int"),
             *(Term(-b, label=Msg.of(code), sign=-1) for code, b in minus))
    formula = (Term(value, 12, "Φ", phi, n, "N_d"),)
    return Part(value, Derivation(terms, value, formula_terms=formula), source)


def _host(note: str, source: str) -> Part:
    return Part(0, Derivation(note=Msg.of(note), formula=Msg.of("deriv.offloaded")), source)


def deepspeed_model_states(phi: int, stage: int, n_d: int, gpus_per_node: int, nodes: int, offload_opt: bool,
                           offload_params: bool, zero_init: bool, largest_layer: int | None,
                           precision: PrecisionSpec, tp: int = 1) -> ModelStates:
    """Per-GPU components whose sum is DeepSpeed's gpu_mem to the byte; host = DeepSpeed's cpu_mem.

    ``phi`` is already one model-parallel rank's share; ``largest_layer`` is the whole model's largest layer,
    which a tensor-parallel rank holds 1/``tp`` of (see the module docstring)."""
    notes: list[Msg] = []
    if (precision.recipe != Recipe.MIXED or precision.dtype == DType.FP32
            or precision.optimizer not in (Optimizer.ADAM, Optimizer.ADAMW)):
        notes.append(Msg.of("note.deepspeed_precision"))
    # DeepSpeed divides by total_gpus: here the data-parallel group; GPUs per node and nodes drive the host side
    if stage < 3:
        if stage == 0:
            notes.append(Msg.of("note.deepspeed_stage0"))
            n = 1
        else:
            n = n_d
            if stage == 1:
                notes.append(Msg.of("note.deepspeed_stage1"))
        cpu, gpu = estimate_zero2(phi, gpus_per_node, nodes, offload_opt, total_gpus=n)
        params = Part(2 * phi, Derivation((Term(2 * phi, 2, "Φ", phi),), 2 * phi), SRC2)
        if offload_opt:
            grads = _host("deriv.gradients_to_host", SRC2)
            opt = _host("deriv.optimizer_on_host", SRC2)
            master = _host("deriv.master_on_host", SRC2)
            host_formula = Msg.of("deriv.host_ds2_offload")
        else:
            grads = _sharded(6, phi, n, SRC2)
            opt = _optimizer(gpu - 2 * phi - grads.bytes, phi, n, (("deriv.gradients", grads.bytes),), SRC2)
            master = _sharded(4, phi, n, SRC2)
            host_formula = Msg.of("deriv.host_ds2")
        return ModelStates(params, grads, opt, master, None, cpu, host_formula, tuple(notes))

    ll = largest_layer
    if ll is None:
        ll = 0
        notes.append(Msg.of("note.largest_layer_unknown"))
    ll = -(-ll // tp)  # what one tensor-parallel rank gathers: ⌈L/tp⌉
    cpu, gpu, llm = estimate_zero3(phi, ll, gpus_per_node, nodes, offload_opt, offload_params, zero_init,
                                   total_gpus=n_d)
    _, gpu2 = estimate_zero2(phi, gpus_per_node, nodes, offload_opt, total_gpus=n_d)
    if gpu > gpu2:  # ZeRO-3's fixed gathered-layer term is more than what sharding the 16-bit parameters saves
        notes.append(Msg.of("note.deepspeed_zero3_costs_more", stage3=f"{gpu:,}", stage2=f"{gpu2:,}",
                            layer=f"{ll:,}"))
    other = Part(llm, Derivation((Term(llm, 4, "L_largest", ll, style="grouped"),), llm),
                 SRC3 + " (largest layer gathered: 16-bit params + grads)")
    params = _host("deriv.param_partition_on_host", SRC3) if offload_params else _sharded(2, phi, n_d, SRC3)
    if offload_opt:
        grads = _host("deriv.gradient_partition_on_host", SRC3)
        opt = _host("deriv.optimizer_on_host", SRC3)
        master = _host("deriv.master_on_host", SRC3)
    else:
        grads = _sharded(4, phi, n_d, SRC3)
        opt = _optimizer(gpu - llm - params.bytes - grads.bytes, phi, n_d,
                         (("deriv.params", params.bytes), ("deriv.gradients", grads.bytes)), SRC3)
        master = _sharded(4, phi, n_d, SRC3)
    if offload_opt:
        k = 18 if offload_params else 16
        host_formula = Msg.of("deriv.host_ds3_offload_init" if zero_init else "deriv.host_ds3_offload", k=k)
    else:
        host_formula = Msg.of("deriv.host_ds3_init" if zero_init else "deriv.host_ds3")
    return ModelStates(params, grads, opt, master, other, cpu, host_formula, tuple(notes))
