"""On the command line as in the window, a size flag without a unit asks for one, naming the field and the flag,
before any range check (issue 13: "--gpu-memory 80" was 80 bytes, "GPU 0.00 GB ... does NOT fit")."""

from __future__ import annotations

import pytest

from vramgui.cli.commands import main


@pytest.mark.parametrize(("argv", "flag", "path"), [
    (["estimate", "--params", "7B", "--gpu-memory", "80"], "--gpu-memory", "hardware.gpu_memory"),
    (["estimate", "--params", "7B", "--gpu-memory", "80GB", "--extra", "2"], "--extra", "overhead.extra"),
    (["estimate", "--params", "7B", "--cuda-context", "512"], "--cuda-context", "overhead.cuda_context"),
    (["compare", "--gpu-memory", "40"], "--gpu-memory", "hardware.gpu_memory"),
    (["solve", "min-gpus", "--params", "7B", "--gpu-memory", "80"], "--gpu-memory", "hardware.gpu_memory"),
])
def test_a_size_flag_without_a_unit_asks_for_one(capsys, argv, flag, path):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    number = argv[argv.index(flag) + 1]
    assert out == "" and err.count("\n") == 1
    assert f"{path} ({flag}): '{number}' has no unit: write {number}GB or {number}GiB ({number}B for bytes)" in err


def test_zero_and_sizes_with_units_are_taken(capsys):
    assert main(["estimate", "--params", "7B", "--gpu-memory", "80GiB", "--cuda-context", "0", "--json"]) in (0, None)
    assert '"gpu_memory": 85899345920' in capsys.readouterr().out
