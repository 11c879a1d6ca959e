"""``strategy.*`` messages. The names of the training strategies (the one labelling function:
``vramgui.core.scenario.strategy``).

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``, translation context "Core").
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP


def entries() -> Mapping[str, str]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        # ----- strategies (vramgui.core.scenario.strategy: the one labelling function; *_short: two lines on a chart
        # axis)
        "strategy.ddp": QT_TRANSLATE_NOOP("Core", "DDP"),
        "strategy.zero": QT_TRANSLATE_NOOP("Core", "ZeRO-{stage}"),
        "strategy.offload_optimizer": QT_TRANSLATE_NOOP("Core", "{base} + CPU optimizer offload"),
        "strategy.offload_all": QT_TRANSLATE_NOOP("Core", "{base} + CPU optimizer and parameter offload"),
        "strategy.offload_params": QT_TRANSLATE_NOOP("Core", "{base} + CPU parameter offload"),
        "strategy.offload_optimizer_short": QT_TRANSLATE_NOOP("Core", "{base}\n+ offload (opt.)"),
        "strategy.offload_all_short": QT_TRANSLATE_NOOP("Core", "{base}\n+ offload (all)"),
        "strategy.offload_params_short": QT_TRANSLATE_NOOP("Core", "{base}\n+ offload (params)"),
        "strategy.megatron_distributed": QT_TRANSLATE_NOOP("Core", "Megatron distributed optimizer"),
        "strategy.megatron_plain": QT_TRANSLATE_NOOP("Core", "Megatron (no distributed optimizer)"),
        "strategy.megatron_distributed_short": QT_TRANSLATE_NOOP("Core", "Megatron\ndistributed optimizer"),
        "strategy.megatron_plain_short": QT_TRANSLATE_NOOP("Core", "Megatron\nno distributed optimizer"),
    }
