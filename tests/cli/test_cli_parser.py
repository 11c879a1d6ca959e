"""`vramgui COMMAND ...` builds COMMAND's parser only (start-up time); what it parses and prints must be what the
whole parser parses and prints."""

from __future__ import annotations

import argparse
import contextlib
import io

import pytest

from vramgui.cli.parser import SUBCOMMANDS, build_parser


def _sub_parsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _help_of(parser: argparse.ArgumentParser, argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        parser.parse_args(argv)
    return out.getvalue()


def test_a_command_builds_its_own_parser_only():
    for command in SUBCOMMANDS:
        assert list(_sub_parsers(build_parser(command))) == [command]
    assert list(_sub_parsers(build_parser())) == list(SUBCOMMANDS)


@pytest.mark.parametrize("argv", [[c, "--help"] for c in SUBCOMMANDS]
                         + [["solve", q, "--help"] for q in ("max-micro-batch", "min-gpus", "max-lora-rank")])
def test_a_command_help_reads_as_with_every_parser_built(argv):
    assert _help_of(build_parser(argv[0]), argv) == _help_of(build_parser(), argv)


def test_a_command_line_parses_to_the_same_namespace():
    argv = ["estimate", "--preset", "llama-3-8b", "--gpus", "8", "--stage", "3", "--json"]
    assert build_parser("estimate").parse_args(argv) == build_parser().parse_args(argv)
