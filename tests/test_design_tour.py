"""docs/design.md names only what exists: its paths, its dotted names, and its diagrams'
classes, members, participants and messages.

The tour is worth reading only while it matches the code, so a rename that forgets it fails
here. What is checked: every inline-code path (`src/...`, `tests/...`, `docs/...`,
`benchmarks/...`) and every relative link; every `mines.x.y` name (imported, then looked up
attribute by attribute); every `Class.member` whose class is one of the core's; every class
of the class diagram with each member it lists; every participant of the sequence diagram
and each method a message calls on it.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOUR = ROOT / "docs" / "design.md"
TEXT = TOUR.read_text(encoding="utf-8")
FENCE = re.compile(r"^( *)```([^\n`]*)\n(.*?)^\1```", flags=re.S | re.M)
PROSE = FENCE.sub("", TEXT)
MERMAID = [match[3] for match in FENCE.finditer(TEXT) if match[2].strip() == "mermaid"]

HOMES = (
    "mines.game",
    "mines.engine",
    "mines.dense",
    "mines.sparse",
    "mines.placement",
    "mines.view",
    "mines.status",
    "mines.symbols",
    "mines.reference",
    "mines.race",
    "mines.record",
)
"""The modules whose classes the tour may name without their module."""
ACTORS = {"caller", "observer"}
"""Sequence-diagram participants that stand for the user's code, not for ours."""
NOT_OURS = {
    "Board.flood": "seed 001's name, quoted in the glossary",
    "Clock.now()": "seed 001's name, quoted in the glossary",
    "GameObserver.onCells": "seed 001's name, quoted in the glossary",
    "mines.rules": "the entry-point group placement rules are registered in, not a module",
}
"""Names the tour quotes that are not ours to check, each with the reason."""
SPANS = sorted(set(re.findall(r"`([^`\n]+)`", PROSE)) - set(NOT_OURS))


def resolve_dotted(name: str) -> object:
    """The object a dotted name below `mines` stands for: the longest importable module,
    then attributes."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise LookupError(name)


def core_class(name: str) -> type | ModuleType:
    """A class of the core by its bare name, or a core module by its last part (`grid`)."""
    for home in HOMES:
        module = importlib.import_module(home)
        found = getattr(module, name, None)
        if isinstance(found, type):
            return found
    try:
        return importlib.import_module(f"mines.{name}")
    except ModuleNotFoundError:
        raise LookupError(f"{name} is no class of {', '.join(HOMES)} and no module") from None


def has_member(owner: type | ModuleType, member: str) -> bool:
    """Whether a class (or module) has `member`: an attribute, an annotation, or an instance
    attribute its code sets (`self.member`)."""
    if hasattr(owner, member) or member in getattr(owner, "__annotations__", {}):
        return True
    if isinstance(owner, type):
        return any(
            re.search(rf"\bself\.{member}\b", inspect.getsource(cls))
            for cls in owner.__mro__
            if cls.__module__.startswith("mines")
        )
    return False


def test_the_tour_has_what_is_checked() -> None:
    assert {"classDiagram", "sequenceDiagram"} <= {d.split()[0] for d in MERMAID}
    assert sum(span.startswith("mines.") for span in SPANS) > 40
    assert sum(span.startswith("src/") for span in SPANS) > 3


@pytest.mark.parametrize(
    "path",
    [
        span
        for span in SPANS
        if re.fullmatch(r"(src|tests|docs|benchmarks|examples)/[\w/.\-]+", span)
    ]
    + re.findall(r"\b(docs/\w+\.md)\b", PROSE),
)
def test_paths_exist(path: str) -> None:
    assert (ROOT / path).exists(), path


@pytest.mark.parametrize("link", re.findall(r"\]\(([\w\-]+\.md)(?:#[\w\-]*)?\)", PROSE))
def test_links_point_at_files(link: str) -> None:
    assert (TOUR.parent / link).exists(), link


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


ANCHORS = {slug(heading) for heading in re.findall(r"^#+ (.+)$", PROSE, flags=re.M)}
README = (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "anchor",
    re.findall(r"\]\(#([\w\-]+)\)", PROSE) + re.findall(r"\(docs/design\.md#([\w\-]+)\)", README),
)
def test_anchors_point_at_headings(anchor: str) -> None:
    assert anchor in ANCHORS, f"no heading of docs/design.md makes #{anchor}"


@pytest.mark.parametrize(
    "name", [span.partition("(")[0] for span in SPANS if re.match(r"mines\.\w", span)]
)
def test_dotted_names_exist(name: str) -> None:
    resolve_dotted(name)


@pytest.mark.parametrize(
    "name",
    [
        span.partition("(")[0]
        for span in SPANS
        if re.fullmatch(r"[A-Z]\w*\.\w+(\(.*\))?", span) and span.split(".")[0] != "GameStatus"
    ],
)
def test_class_members_exist(name: str) -> None:
    owner, member = name.split(".")
    assert has_member(core_class(owner), member), name


def class_diagram() -> dict[str, list[str]]:
    """Each class of the class diagram with the members it lists."""
    text = next(d for d in MERMAID if d.split()[0] == "classDiagram")
    classes: dict[str, list[str]] = {}
    for name, body in re.findall(r"class (\w+) \{(.*?)\}", text, flags=re.S):
        members = []
        for line in body.splitlines():
            line = line.strip()
            if line and not line.startswith("<<"):
                member = re.match(r"[+\-#~]?(\w+)", line)
                assert member, f"cannot read the member {line!r} of {name}"
                members.append(member[1])
        classes[name] = members
    for left, right in re.findall(r"^\s*(\w+)\s+\S*(?:--|\.\.)\S*\s+(\w+)", text, flags=re.M):
        classes.setdefault(left, [])
        classes.setdefault(right, [])
    return classes


@pytest.mark.parametrize(("name", "members"), sorted(class_diagram().items()))
def test_class_diagram_is_the_code(name: str, members: list[str]) -> None:
    owner = core_class(name)
    assert isinstance(owner, type), name
    missing = [member for member in members if not has_member(owner, member)]
    assert not missing, f"{name} has no {missing}"


def sequence() -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The sequence diagram's participants (alias to name) and its calls (alias, method)."""
    text = next(d for d in MERMAID if d.split()[0] == "sequenceDiagram")
    participants = dict(re.findall(r"participant (\w+) as (\w+)", text))
    calls = re.findall(r"^\s*\w+->>(\w+): (\w+)\(", text, flags=re.M)
    return participants, calls


def test_sequence_participants_are_the_code() -> None:
    participants, _ = sequence()
    assert participants
    for name in participants.values():
        if name not in ACTORS:
            core_class(name)


@pytest.mark.parametrize(("alias", "method"), sequence()[1])
def test_sequence_messages_are_methods(alias: str, method: str) -> None:
    name = sequence()[0][alias]
    if name in ACTORS:
        return
    assert has_member(core_class(name), method), f"{name}.{method}"
