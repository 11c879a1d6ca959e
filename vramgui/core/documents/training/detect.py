"""Which tool wrote a training config, told from its content (the file name and extension are not asked), and the
reader for it; a nested DeepSpeed file merged into the config that names it."""

from __future__ import annotations

import posixpath
from dataclasses import replace
from typing import Any

from vramgui.core.documents.training import accelerate, axolotl, deepspeed, llamafactory, megatron, torchtune, trainer
from vramgui.core.documents.training.imported import Batch, Imported, Include
from vramgui.core.scenario.choices import DType
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg

FORMATS = ("deepspeed", "accelerate", "axolotl", "llamafactory", "torchtune", "trainer", "megatron")
TOOLS = {"deepspeed": "DeepSpeed", "accelerate": "accelerate", "axolotl": "axolotl", "llamafactory": "LLaMA-Factory",
         "torchtune": "torchtune", "trainer": "transformers TrainingArguments", "megatron": "torchrun + Megatron-LM"}
READERS = {"deepspeed": deepspeed.read, "accelerate": accelerate.read, "axolotl": axolotl.read,
           "llamafactory": llamafactory.read, "torchtune": torchtune.read, "trainer": trainer.read,
           "megatron": megatron.read}

_DEEPSPEED_KEYS = ("zero_optimization", "train_micro_batch_size_per_gpu", "train_batch_size",
                   "zero_allow_untested_optimizer")
_LLAMAFACTORY_KEYS = ("finetuning_type", "template", "cutoff_len", "stage", "quantization_bit", "lora_target")
_AXOLOTL_KEYS = ("micro_batch_size", "sequence_len", "adapter", "datasets", "load_in_4bit", "load_in_8bit",
                 "lora_r", "num_epochs")


def detect(doc: Any) -> str | None:
    """The format of a parsed document, or None when it is none of the six."""
    if not isinstance(doc, dict):
        return None
    if list(doc) == ["torchrun"] and isinstance(doc["torchrun"], list):  # io/ split a launch line
        return "megatron"
    if isinstance(doc.get("model"), dict) and "_component_" in doc["model"]:
        return "torchtune"
    if "distributed_type" in doc or "compute_environment" in doc:
        return "accelerate"
    if any(k in doc for k in _DEEPSPEED_KEYS) or any(
            isinstance(doc.get(k), dict) and "enabled" in doc[k] for k in ("fp16", "bf16")):
        return "deepspeed"
    if "model_name_or_path" in doc and any(k in doc for k in _LLAMAFACTORY_KEYS):
        return "llamafactory"
    if "base_model" in doc and any(k in doc for k in _AXOLOTL_KEYS):
        return "axolotl"
    if "per_device_train_batch_size" in doc and "output_dir" in doc:
        return "trainer"
    return None


def read(doc: Any, what: str = "training config") -> Imported:
    """The document's fields; a document of no known format is an InputError naming the file."""
    fmt = detect(doc)
    if fmt is None:
        raise InputError("training_config", Msg.of("error.training_config_format", file=what),
                         Msg.of("allowed.training_config_formats"))
    return READERS[fmt](doc, what)


def context_of(outer: Imported) -> deepspeed.Context:
    """What the tool around a DeepSpeed file fills its autos with: the trainers (transformers'
    ``trainer_config_process``) give micro-batch, accumulation and precision; accelerate gives the accumulation
    and precision of its own config (the micro-batch is the data loader's, known only at run time)."""
    dtype = next((t.value for t in outer.taken if t.path == "precision.dtype"), None)
    if outer.format in ("llamafactory", "trainer", "axolotl") and dtype is None:
        dtype = DType.FP32  # TrainingArguments: bf16 and fp16 default to false
    return deepspeed.Context(TOOLS[outer.format], micro=outer.format != "accelerate" or outer.batch.micro is not None,
                             accumulation=outer.format != "accelerate" or outer.batch.accumulation is not None,
                             dtype=dtype)


def with_deepspeed(outer: Imported, include: Include, doc: Any, what: str) -> Imported:
    """``outer`` with the DeepSpeed config it names merged in: its concrete values over the outer file's (the tools
    pass the DeepSpeed file to DeepSpeed, which reads it), its autos filled from the outer file."""
    if not isinstance(doc, dict) or detect(doc) not in ("deepspeed", None):
        raise InputError("training_config", Msg.of("error.training_config_not_deepspeed", file=what, key=include.key))
    name = posixpath.basename(include.target.replace("\\", "/")) if include.target else include.key
    inner = deepspeed.read(doc, what, context_of(outer), prefix=f"{name}:")
    paths = {t.path for t in inner.taken}
    b, i = outer.batch, inner.batch
    return replace(outer, taken=tuple(t for t in outer.taken if t.path not in paths) + inner.taken,
                   ignored=outer.ignored + inner.ignored, unresolved=outer.unresolved + inner.unresolved,
                   includes=tuple(x for x in outer.includes if x != include),
                   batch=Batch(b.micro or i.micro, b.accumulation or i.accumulation, b.total or i.total, b.micro_note),
                   hidden_autos=outer.hidden_autos + inner.hidden_autos)


def inline_deepspeed(doc: dict[str, Any], key: str) -> Any:
    """The DeepSpeed config written inside a TrainingArguments / LLaMA-Factory / axolotl document."""
    value: Any = doc
    for part in key.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value
