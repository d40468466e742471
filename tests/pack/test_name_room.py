"""A checkout's folder name never changes what its pack holds (pack.name_room)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ctxopt.app.pack import refresh_then_pack
from ctxopt.config.settings import load_settings
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.pack.api import PackOptions
from ctxopt.pack.name_room import NAME_ROOM, STAND_IN, with_name_room
from ctxopt.pack.prompt_tokens import count as count_tokens
from ctxopt.pack.render import RenderInput, render
from ctxopt.types import PackResult
from helpers import sample_repo

SHORT = "r"
ROOMY = "inventory-service-review-checkout-2"  # within NAME_ROOM tokens
LONG = "-".join(["inventory", "service", "review", "checkout", "of", "the", "week"] * 3)


def _base(name: str) -> RenderInput:
    return RenderInput(
        repo_name=name, task="fix the stock report", groups=(), elsewhere=(), overview="",
        shown_files=0, total_files=9, repo_tokens=12_345, line_numbers=False,
    )  # fmt: skip


@pytest.mark.parametrize("fmt", ["markdown", "xml", "plain"])
def test_the_stand_in_takes_the_room_of_a_name_up_to_its_size(fmt: str) -> None:
    empty = count_tokens(render(_base(""), fmt))
    assert count_tokens(render(_base(STAND_IN), fmt)) - empty == NAME_ROOM
    for name in (SHORT, ROOMY):
        assert with_name_room(_base(name), fmt).repo_name == STAND_IN
    assert with_name_room(_base(LONG), fmt).repo_name == LONG  # it costs more: itself


@pytest.fixture(scope="module")
def checkouts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One repository checked out in folders of three names, each indexed."""
    first = sample_repo(tmp_path_factory.mktemp("names"))
    folders = {}
    for name in (SHORT, ROOMY, LONG):
        folder = tmp_path_factory.mktemp("checkout") / name
        shutil.copytree(first, folder)
        build_index(load_settings(folder), workers=IN_PROCESS)
        folders[name] = folder
    return folders


def _pack(folder: Path, budget: int, fmt: str) -> PackResult:
    options = PackOptions(task="save inventory reserve stock", budget=budget, format=fmt)
    return refresh_then_pack(load_settings(folder), options, refresh=False)


def _held(result: PackResult) -> list[tuple[str, str, int, int]]:
    return [(c.hit.chunk.id, c.fidelity.value, c.start_line, c.end_line) for c in result.chosen]


@pytest.mark.parametrize("fmt", ["markdown", "xml"])
@pytest.mark.parametrize("budget", [400, 700, 1500, 3000])
def test_a_folder_of_another_name_packs_the_same_code(
    checkouts: dict[str, Path], budget: int, fmt: str
) -> None:
    short, roomy = _pack(checkouts[SHORT], budget, fmt), _pack(checkouts[ROOMY], budget, fmt)
    assert _held(short) == _held(roomy)
    assert f"`{SHORT}`" in short.prompt and f"`{ROOMY}`" in roomy.prompt
    assert short.prompt.replace(f"`{SHORT}`", f"`{ROOMY}`", 1) == roomy.prompt
    assert STAND_IN not in short.prompt + roomy.prompt
    for result in (short, roomy, _pack(checkouts[LONG], budget, fmt)):
        assert result.tokens == count_tokens(result.prompt) <= budget
    assert f"`{LONG}`" in _pack(checkouts[LONG], budget, fmt).prompt
