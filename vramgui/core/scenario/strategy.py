"""The training strategy as a value: ZeRO stage, CPU offload, convention (Megatron: distributed optimizer).

``Strategy`` is what ``Estimate.strategy`` and the variants of ``solve.strategy_variants`` carry. Clients key
charts and tables on :attr:`Strategy.key` (``"zero2+offload_opt"``), a stable id, and show :func:`label` (the
one labelling function: English for the CLI and ``--json``, the user's language in the window through ``tr``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from vramgui.core.memo import dict_init, replaced
from vramgui.core.scenario.choices import Convention, Offload
from vramgui.core.scenario.convention import RULES, convention_of
from vramgui.core.scenario.specs import Scenario
from vramgui.core.text.message import Msg, Translator, english, render

# The fields a Strategy is made of (what ``Strategy.of`` reads and ``apply`` writes): said together as the strategy's
# name in captions and pin names, and changed together by the adviser's strategy suggestions.
FIELDS = ("parallel.zero_stage", "offload.optimizer", "offload.params", "parallel.distributed_optimizer")


@dict_init
@dataclass(frozen=True)
class Strategy:
    """How model states are sharded and where they live. Under the megatron convention only
    ``distributed_optimizer`` counts (stage and offload are normalised away); elsewhere it is False."""

    stage: int = 0
    offload_optimizer: bool = False
    offload_params: bool = False
    convention: Convention = Convention.PAPER
    distributed_optimizer: bool = False

    @classmethod
    def of(cls, scenario: Scenario) -> Strategy:
        if not convention_of(scenario).uses_zero_stage:  # megatron: its distributed optimizer is the sharding
            return cls(0, False, False, scenario.convention, scenario.parallel.distributed_optimizer)
        return cls(scenario.parallel.zero_stage, scenario.offload.optimizer == Offload.CPU,
                   scenario.offload.params == Offload.CPU, scenario.convention, False)

    def apply(self, scenario: Scenario) -> Scenario:
        """``scenario`` trained with this strategy (the convention is the scenario's own)."""
        # (memo.replaced: the plan search and the adviser apply strategies thousands of times per question)
        if not convention_of(scenario).uses_zero_stage:
            parallel = replaced(scenario.parallel, distributed_optimizer=self.distributed_optimizer)
            return replaced(scenario, parallel=parallel)
        return replaced(scenario, parallel=replaced(scenario.parallel, zero_stage=self.stage),
                        offload=replaced(scenario.offload,
                                         optimizer=Offload.CPU if self.offload_optimizer else Offload.NONE,
                                         params=Offload.CPU if self.offload_params else Offload.NONE))

    @property
    def megatron(self) -> bool:
        """Sharded by a distributed optimizer, not by a ZeRO stage (the megatron convention)."""
        return not RULES[self.convention].uses_zero_stage

    @property
    def offloads(self) -> bool:
        return self.offload_optimizer or self.offload_params

    @property
    def sharding(self) -> Strategy:
        """The same strategy without offload (the label ``--json`` has always given under "strategy")."""
        return replace(self, offload_optimizer=False, offload_params=False)

    @property
    def key(self) -> str:
        """A stable id: ``ddp``, ``zero1`` ... ``zero3+offload_all``, ``megatron``, ``megatron+distopt``."""
        if self.megatron:
            return "megatron+distopt" if self.distributed_optimizer else "megatron"
        base = "ddp" if self.stage == 0 else f"zero{self.stage}"
        if self.offload_optimizer and self.offload_params:
            return base + "+offload_all"
        if self.offload_optimizer:
            return base + "+offload_opt"
        return base + "+offload_params" if self.offload_params else base

    def msg(self, short: bool = False) -> Msg:
        return label_msg(self, short)

    def label(self, tr: Translator = english, short: bool = False) -> str:
        return label(self, tr, short)

    def __str__(self) -> str:
        return label(self)


def label_msg(s: Strategy, short: bool = False) -> Msg:
    """The strategy's name as a message; ``short`` is the two-line form for a chart axis."""
    if s.megatron:
        if s.distributed_optimizer:
            return Msg.of("strategy.megatron_distributed_short" if short else "strategy.megatron_distributed")
        return Msg.of("strategy.megatron_plain_short" if short else "strategy.megatron_plain")
    base = Msg.of("strategy.ddp") if s.stage == 0 else Msg.of("strategy.zero", stage=s.stage)
    if s.offload_optimizer and s.offload_params:
        code = "strategy.offload_all"
    elif s.offload_optimizer:
        code = "strategy.offload_optimizer"
    elif s.offload_params:
        code = "strategy.offload_params"
    else:
        return base
    return Msg.of(code + "_short" if short else code, base=base)


def label(s: Strategy, tr: Translator = english, short: bool = False) -> str:
    """The one labelling function: "ZeRO-3 + CPU optimizer offload", "Megatron (no distributed optimizer)"."""
    return render(label_msg(s, short), tr)
