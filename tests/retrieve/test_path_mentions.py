"""A path the task gives is matched to an indexed file by its tail, however deep the prefix
from another machine (an absolute path, with or without a line; a pasted run of `./`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxopt.config.settings import Settings, load_settings
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.store import IndexReader
from ctxopt.retrieve.search import QueryOptions, rank
from helpers import HashEmbedder, commit_all, init_repo, write_files


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    root: Path = init_repo(tmp_path_factory.mktemp("paths") / "repo")
    write_files(
        root,
        {
            "src/shop/cart.py": "def total(items):\n    return sum(i.price for i in items)\n",
            "src/shop/stock.py": "def reserve(item):\n    item.reserved = True\n",
        },
    )
    commit_all(root)
    settings = load_settings(root)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    return settings


def _top_paths(settings: Settings, task: str) -> list[str]:
    ranking = rank(settings, task, QueryOptions(), reader=IndexReader(settings.db_path))
    return [hit.chunk.path for hit in ranking.ranked if hit.features["proximity"] >= 1.0]


def test_a_deep_prefix_from_another_machine_is_dropped(repo: Settings) -> None:
    deep = "/build/" + "x/" * 3_000 + "src/shop/cart.py"
    assert _top_paths(repo, f'File "{deep}", line 2, in total') == ["src/shop/cart.py"]


def test_a_run_of_thousands_of_dot_slashes_names_no_file(repo: Settings) -> None:
    assert _top_paths(repo, "./" * 15_000) == []


def test_an_absolute_path_without_a_line_names_its_file(repo: Settings) -> None:
    task = "reserve fails for items listed in /home/me/work/shop/src/shop/stock.py"
    assert _top_paths(repo, task) == ["src/shop/stock.py"]


def _pointed_at(settings: Settings, task: str) -> list[str]:
    ranking = rank(settings, task, QueryOptions(), reader=IndexReader(settings.db_path))
    return [hit.chunk.path for hit in ranking.ranked if hit.points_at_line]


INSTALLED_FRAME = 'File "/usr/lib/python3.12/site-packages/shop/cart.py", line 2, in total'


def test_an_installed_copys_frame_points_at_the_file_sharing_its_tail(repo: Settings) -> None:
    # neither path is a tail of the other: they share shop/cart.py, which no other file has
    assert _pointed_at(repo, INSTALLED_FRAME) == ["src/shop/cart.py"]
    assert _top_paths(repo, INSTALLED_FRAME) == ["src/shop/cart.py"]
    ranking = rank(repo, INSTALLED_FRAME, QueryOptions(), reader=IndexReader(repo.db_path))
    assert ranking.ranked[0].reasons[0] == "holds a line the task points at"


def test_a_file_name_alone_is_not_a_shared_tail(repo: Settings) -> None:
    frame = 'File "/usr/lib/python3.12/site-packages/other/cart.py", line 2, in total'
    assert _pointed_at(repo, frame) == []


@pytest.fixture(scope="module")
def twins(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    root: Path = init_repo(tmp_path_factory.mktemp("twins") / "repo")
    body = "def total(items):\n    return sum(i.price for i in items)\n"
    write_files(root, {"src/shop/cart.py": body, "lib/shop/cart.py": body})
    commit_all(root)
    settings = load_settings(root)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    return settings


def test_a_tail_two_indexed_files_share_points_at_neither(twins: Settings) -> None:
    assert _pointed_at(twins, INSTALLED_FRAME) == []
    # the repository's own path still points at its file
    assert _pointed_at(twins, 'File "/home/me/src/shop/cart.py", line 2') == ["src/shop/cart.py"]
