"""``--training-config`` on the command line: flags override the file, --preset replaces the model it names, the
report in text and JSON, one line on stderr and exit 2 for a bad file."""

from __future__ import annotations

import json

from vramgui.cli.commands import main

AXOLOTL = """base_model: NousResearch/Llama-3.2-1B
adapter: qlora
load_in_4bit: true
lora_r: 16
sequence_len: 1024
micro_batch_size: 2
gradient_accumulation_steps: 4
lora_modules_to_save: [lm_head]
wandb_project: demo
"""


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_flags_override_the_file_and_the_report_says_so(tmp_path, capsys):
    cfg = tmp_path / "a.yml"
    cfg.write_text(AXOLOTL)
    code, out, err = run(capsys, "estimate", "--training-config", str(cfg), "--micro-batch", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    # micro-batch 1 (the flag) × 4 accumulation steps (the file) on 1 GPU: 4 sequences of 1024 tokens per step
    assert (data["accumulation_steps"], data["tokens_per_step"]) == (4, 4 * 1024)
    report = data["imported"]
    assert report["format"] == "axolotl"
    micro = [e for e in report["taken"] if e["field"] == "training.micro_batch"]
    assert micro == [{"field": "training.micro_batch", "value": 2, "key": "micro_batch_size",
                      "overridden_by": "--micro-batch"}]
    assert [e["key"] for e in report["unresolved"]] == ["lora_modules_to_save"]
    assert [e["key"] for e in report["ignored"]] == ["wandb_project"]
    assert report["taken"][0]["field"] == "model.preset" and report["taken"][0]["value"] == "llama-3.2-1b"


def test_preset_replaces_the_named_model(tmp_path, capsys):
    cfg = tmp_path / "a.yml"
    cfg.write_text(AXOLOTL)
    code, out, err = run(capsys, "estimate", "--training-config", str(cfg), "--preset", "qwen3-0.6b")
    assert code == 0, err
    assert out.startswith("Qwen3 0.6B")
    assert "base_model: NousResearch/Llama-3.2-1B  -- not used: --preset gives the model" in out
    assert "taken (" in out and "unresolved (2):" in out and "ignored (1):" in out


def test_bad_files_are_one_line_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("distributed_type: FSDP\nfsdp_config: [\n")
    for argv in (("--training-config", str(bad)), ("--training-config", str(tmp_path / "none.json")),
                 ("--training-config", "")):
        code, out, err = run(capsys, "estimate", "--params", "1B", *argv)
        assert code == 2 and not out and len(err.strip().splitlines()) == 1, err
    code, out, err = run(capsys, "estimate", "--params", "1B", "--training-config", str(bad))
    assert "--training-config" in err and str(bad) in err and "line" in err


def test_a_value_out_of_range_names_the_key(tmp_path, capsys):
    cfg = tmp_path / "a.yml"
    cfg.write_text("base_model: m\nadapter: lora\nlora_r: 0\nmicro_batch_size: 1\n")
    code, _, err = run(capsys, "estimate", "--training-config", str(cfg), "--params", "1B")
    assert code == 2 and "lora_r in" in err and "(--training-config)" in err and "(allowed: >= 1)" in err
    cfg.write_text("base_model: m\nadapter: lora\nlora_r: 100000\nmicro_batch_size: 1\n")
    code, _, err = run(capsys, "estimate", "--training-config", str(cfg), "--params", "1B")
    assert code == 2 and "lora_r in" in err and "finetune.lora_rank (--lora-rank)" in err


def test_unknown_model_without_a_preset_says_what_to_give(tmp_path, capsys):
    cfg = tmp_path / "a.yml"
    cfg.write_text("base_model: someone/custom\nmicro_batch_size: 1\n")
    code, _, err = run(capsys, "estimate", "--training-config", str(cfg))
    assert code == 2 and "someone/custom" in err and "--preset" in err


def test_solve_and_max_params_take_the_file(tmp_path, capsys):
    cfg = tmp_path / "ds.json"
    cfg.write_text(json.dumps({"zero_optimization": {"stage": 3}, "bf16": {"enabled": True},
                               "train_micro_batch_size_per_gpu": 1}))
    code, out, err = run(capsys, "solve", "max-seq-len", "--training-config", str(cfg), "--preset", "llama-3-8b",
                         "--gpu", "h100-sxm", "--gpus", "8", "--json")
    assert code == 0, err
    assert json.loads(out)["imported"]["format"] == "deepspeed"
    code, out, err = run(capsys, "max-params", "--training-config", str(cfg), "--gpus", "8", "--gpu-memory", "80GB")
    assert code == 0 and "Read from the DeepSpeed config" in out


def test_compare_takes_the_files_gpus_dtype_and_lora(tmp_path, capsys):
    cfg = tmp_path / "acc.yaml"
    cfg.write_text("distributed_type: MULTI_GPU\nnum_processes: 4\nmixed_precision: fp16\n")
    code, out, err = run(capsys, "compare", "--training-config", str(cfg), "--json")
    assert code == 0, err
    from_file = json.loads(out)
    code, out, err = run(capsys, "compare", "--gpus", "4", "--dtype", "fp16", "--json")
    assert from_file.pop("imported")["format"] == "accelerate"
    assert from_file == json.loads(out)
    axolotl = tmp_path / "a.yml"
    axolotl.write_text(AXOLOTL + "optimizer: adamw_bnb_8bit\n")
    code, out, err = run(capsys, "compare", "--training-config", str(axolotl), "--dtype", "bf16", "--json")
    assert code == 0, err
    data = json.loads(out)
    optimizer = [e for e in data["imported"]["taken"] if e["field"] == "precision.optimizer"]
    assert optimizer[0]["overridden_by"].startswith("compare")  # the seed's table counts Adam or SGD
    code, out, err = run(capsys, "compare", "--finetune", "qlora", "--lora-rank", "16", "--micro-batch", "2",
                         "--seq-len", "1024", "--double-quant", "--dtype", "bf16", "--json")
    flags = json.loads(out)
    data.pop("imported")
    assert data == flags


def test_a_scenario_then_the_file_then_the_flags(tmp_path, capsys):
    from vramgui.core.scenario.specs import ModelSpec, ParallelSpec, Scenario
    from vramgui.io.scenario_files import save_scenario

    scenario = tmp_path / "s.json"
    save_scenario(scenario, Scenario(model=ModelSpec(params=7 * 10**9), parallel=ParallelSpec(num_gpus=4,
                                                                                              zero_stage=2)))
    ds = tmp_path / "ds.json"
    ds.write_text(json.dumps({"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 2}))
    code, out, err = run(capsys, "estimate", "--scenario", str(scenario), "--training-config", str(ds), "--json")
    assert code == 0, err
    layered = json.loads(out)
    layered.pop("imported")
    code, out, err = run(capsys, "estimate", "--params", "7B", "--gpus", "4", "--stage", "3", "--micro-batch", "2",
                         "--dtype", "fp32", "--json")  # no fp16/bf16 section: DeepSpeed trains in fp32
    assert code == 0 and layered == json.loads(out)
    _, out, _ = run(capsys, "estimate", "--scenario", str(scenario), "--training-config", str(ds), "--stage",
                         "1", "--json")
    assert json.loads(out)["strategy_key"].startswith("zero1")
