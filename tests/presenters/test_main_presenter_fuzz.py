"""Any sequence of edits, sensible or not, leaves the presenter consistent and never raises."""

from __future__ import annotations

from unittest.mock import MagicMock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vramgui.core.estimate import estimate
from vramgui.presenters.main_presenter import MainPresenter
from vramgui.presenters.protocols import MainView

TEXT = st.sampled_from(["", "0", "-3", "7B", "13B", "1e15", "abc", "80GB", "24GiB", "1.5", "  12 ", "9" * 30])
EDITS = st.one_of(
    st.tuples(st.sampled_from(["model.params", "hardware.gpu_memory", "training.global_batch", "hardware.reserve"]),
              TEXT),
    st.tuples(st.sampled_from(["training.micro_batch", "training.seq_len", "parallel.gpus_per_node",
                               "parallel.num_gpus", "parallel.tp", "parallel.pp", "model.architecture.num_layers",
                               "model.architecture.num_heads", "model.architecture.hidden_size",
                               "model.architecture.num_kv_heads"]),
              st.integers(min_value=-2, max_value=5000)),
    st.tuples(st.sampled_from(["parallel.sp", "offload.optimizer", "offload.params", "offload.zero_init",
                               "parallel.distributed_optimizer"]), st.booleans()),
    st.tuples(st.sampled_from(["overhead.cuda_context", "overhead.zero3_live_params", "model.largest_layer"]), TEXT),
    st.tuples(st.just("model.preset"), st.sampled_from(["", "llama-3-8b", "gpt2", "mixtral-8x7b", "nonsense"])),
    st.tuples(st.just("model.mode"), st.sampled_from(["preset", "params", "architecture", "bogus"])),
    st.tuples(st.just("hardware.gpu"), st.sampled_from(["custom", "h100-sxm", "rtx-4090", "nope"])),
    st.tuples(st.just("parallel.zero_stage"), st.sampled_from(["0", "1", "2", "3", "7"])),
    st.tuples(st.just("convention"), st.sampled_from(["paper", "deepspeed", "megatron"])),
    st.tuples(st.just("precision.dtype"), st.sampled_from(["fp32", "fp16", "bf16"])),
    st.tuples(st.just("training.recompute"), st.sampled_from(["none", "selective", "full"])),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(EDITS, min_size=1, max_size=8))
def test_random_edits_keep_result_and_errors_consistent(qapp, edits):
    view = MagicMock(spec=MainView)
    presenter = MainPresenter(view)
    presenter.start()
    for key, value in edits:
        presenter.on_field_edited(key, value)
        if presenter.is_stale:
            assert presenter.errors and all(e.message for e in presenter.errors)
            assert not any("Internal error" in e.message for e in presenter.errors), presenter.errors
            view.show_stale.assert_called()
            assert view.show_stale.call_args.args[0]
        else:
            assert presenter.result.summary.total_bytes == estimate(presenter.scenario).per_gpu_total
    presenter.finish_sweeps()
