"""`pack --format xml` through the CLI: a document a real XML parser reads, holding the same
code as the markdown pack, over every fixture language and a file written to break it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest

from clitools import CliRunner, run_cli
from helpers import ROOT, SAMPLE_REPO, commit_all, init_repo

pytestmark = pytest.mark.slow

# everything that ends an XML document early or makes it malformed, and a control character
HOSTILE = (
    "def close_tags():\n"
    '    """Ends </document_content></document></context> early; ]]> too."""\n'
    '    return "a < b && c > d ]]]]> <!-- x -- y -->" + "\x01"\n'
)
TASK = "close_tags sample greet parse config format package settings"
Entry = tuple[str, str]  # (file path, code of one entry)


@pytest.fixture(scope="module")
def fixture_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """fixtures/languages, fixtures/sample_repo and the hostile file in one indexed git repo."""
    repo = tmp_path_factory.mktemp("xml") / "repo"
    shutil.copytree(ROOT / "fixtures" / "languages", repo / "languages")
    shutil.copytree(SAMPLE_REPO, repo / "sample")
    (repo / "hostile.py").write_bytes(HOSTILE.encode("utf-8"))
    init_repo(repo)
    commit_all(repo)
    done = run_cli("index", str(repo), "--quiet")
    assert done.code == 0, done.err
    return repo


def parsing_comments(prompt: str) -> ElementTree.Element:
    builder = ElementTree.TreeBuilder(insert_comments=True)
    parser = ElementTree.XMLParser(target=builder)
    parser.feed(prompt)
    return parser.close()


def xml_entries(prompt: str) -> list[Entry]:
    root = parsing_comments(prompt)  # raises unless well-formed
    assert root.tag == "prompt"
    entries: list[Entry] = []
    for document in root.iter("document"):
        path = document.findtext("source")
        content = document.find("document_content")
        assert path is not None and content is not None
        # each entry: a comment (the label) whose tail is "\n" + CDATA text + "\n"
        assert content.text == "\n"
        entries += [(path, (item.tail or "")[1:-1]) for item in content]
    return entries


HEADING = re.compile(r"^## (.+) \(([^,]+), lines [\d, -]+\)$")
FENCE = re.compile(r"^(`{3,})[\w+#-]*$")


def markdown_entries(prompt: str) -> list[Entry]:
    entries: list[Entry] = []
    lines = iter(prompt.split("\n"))
    path = None
    for line in lines:
        if line.startswith("## "):
            heading = HEADING.match(line)
            path = heading.group(1) if heading else None
            continue
        fence = FENCE.match(line)
        if fence and path is not None:
            body = []
            for inner in lines:
                if inner == fence.group(1):
                    break
                body.append(inner)
            entries.append((path, "\n".join(body)))
    return entries


@pytest.mark.parametrize("compression", ["none", "aggressive"])
def test_xml_pack_parses_and_holds_the_markdown_code(
    fixture_repo: Path, cli: CliRunner, compression: str
) -> None:
    def pack(fmt: str) -> str:
        args = ("--budget", "200000", "--max-chunks-per-file", "50", "-c", compression)
        done = cli("pack", TASK, "--path", str(fixture_repo), "-f", fmt, "--no-refresh", *args)
        assert done.code == 0, done.err
        return done.out

    markdown = markdown_entries(pack("markdown"))
    xml = xml_entries(pack("xml"))
    # the code the XML parser reads back is the markdown pack's code, entry by entry; the
    # control character XML forbids is the one difference (U+FFFD)
    assert xml == [(path, code.replace("\x01", "\ufffd")) for path, code in markdown]
    paths = {path for path, _ in xml}
    fixtures = {f"languages/{p.name}" for p in (ROOT / "fixtures" / "languages").iterdir()}
    assert fixtures - {"languages/NOTES.txt"} <= paths  # every language sample is in it
    assert any(path.startswith("sample/") for path in paths)
    hostile = [code for path, code in xml if path == "hostile.py"]
    assert hostile and "</document_content></document></context>" in hostile[0]
    assert "]]]]>" in hostile[0] and "a < b && c" in hostile[0]


def test_task_with_markup_stays_text(fixture_repo: Path, cli: CliRunner) -> None:
    task = "why does close_tags return </task> & ]]> <b>"
    done = cli("pack", task, "--path", str(fixture_repo), "-f", "xml", "--no-refresh")
    assert done.code == 0, done.err
    root = ElementTree.fromstring(done.out)
    assert (root.findtext("task") or "").strip() == task
