"""The import graph of `src/mines`: no cycles, and every import points down a layer.

The layers, lowest first:

- core: `mines` itself, its top-level modules and `mines.sparse` (no I/O, no UI);
- solver: `mines.solver`, which may import the core;
- front ends: `mines.cli`, `mines.tui`, `mines.server`, `mines.gym`, `mines.compat`, which
  may import the core and the solver.

A layer never imports one above it (the core finds the solver's "noguess" rule through an
entry point, not an import). Front ends do not import each other, with one exception:
`mines.cli` is the command line, the one front end that starts the others (`mines play`
opens the terminal game, `mines serve` the server), so it may import any front end; no
front end imports `mines.cli`. Every import counts, including those inside functions and
under `TYPE_CHECKING`: a deferred import is still a dependency. So does a module named in a
string, as `importlib.import_module("mines.tui.app")`, an entry point such as
`"mines.gym.env:MinesEnv"` or a table of module names hand one to the import system.

`KNOWN_CYCLES` lists the cycles that others are still taking apart; whoever breaks one
removes its entry in the same commit, and the test fails on an entry that is no longer
a cycle, so the list can only shrink.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src"
CORE, SOLVER = "core", "solver"
FRONT_ENDS = ("cli", "tui", "server", "gym", "compat")
LAUNCHER = "cli"
"""The front end allowed to import the others (it starts them)."""

KNOWN_CYCLES: dict[str, frozenset[str]] = {}
"""Each known cycle by the modules (or packages) it must contain; an entry matches the
strongly connected component that contains all of them (it may hold more)."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted((SOURCE / "mines").rglob("*.py"))}


def named_module(text: str, modules: dict[str, Path]) -> str | None:
    """The module of the tree a string names (`"mines.tui.app"`, `"mines.gym.env:MinesEnv"`),
    if it names one: a dotted name below `mines`, not the bare word `mines`."""
    dotted = text.partition(":")[0]
    return dotted if dotted in modules and "." in dotted else None


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of the tree that `name` imports anywhere in its file, or names in a string."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            target = named_module(node.value, modules)
            targets = [target] if target else []
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # `from package import module` depends on the module; otherwise on the package.
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            # `import mines.solver.bot` names the deepest module of the tree it reaches.
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = all_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) > 1 and parts[1] == "solver":
        return SOLVER
    if len(parts) > 1 and parts[1] in FRONT_ENDS:
        return parts[1]
    return CORE


def package(module: str) -> str:
    """The unit of the package graph: a subpackage of `mines` as a whole, or a core module."""
    parts = module.split(".")
    return module if len(parts) < 2 or module in TOP_LEVEL else ".".join(parts[:2])


TOP_LEVEL = frozenset(
    f"mines.{path.stem}" for path in (SOURCE / "mines").glob("*.py") if path.stem != "__init__"
)


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    packages: dict[str, set[str]] = {}
    for source, targets in graph.items():
        here = package(source)
        packages.setdefault(here, set()).update(package(t) for t in targets)
        packages[here].discard(here)
    return packages


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Cycles between modules, and between packages (two packages that import each other)."""
    return strongly_connected(graph) + strongly_connected(package_graph(graph))


def known(component: set[str]) -> bool:
    return any(members <= component for members in KNOWN_CYCLES.values())


def rank(module: str) -> int:
    kind = layer(module)
    return 0 if kind == CORE else 1 if kind == SOLVER else 2


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm, iterative: every component of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(component)
    return components


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    wrong = []
    for source, targets in sorted(graph.items()):
        for target in sorted(targets):
            here, there = layer(source), layer(target)
            if rank(target) > rank(source):
                wrong.append(f"{source} ({here}) imports {target} ({there}), a layer above it")
            elif here != there and rank(source) == rank(target) == 2 and here != LAUNCHER:
                if known({package(source), package(target)}):
                    continue  # a known cycle, reported (and allowed) by the cycle test
                wrong.append(f"front end {source} imports {target} of the front end {there}")
    return wrong


def test_the_graph_sees_the_imports() -> None:
    graph = import_graph()
    assert "mines.engine" in graph["mines.dense"]
    assert "mines.game" in graph["mines"]
    assert {"mines.dense", "mines.solver.rules"} <= graph["mines.solver.noguess"]
    assert layer("mines.sparse.engine") == CORE
    assert layer("mines.solver.bot") == SOLVER
    assert layer("mines.server.app") == "server"
    # Modules named in strings: the command's table of subcommands, the gym's entry points.
    assert {"mines.server.ops.cli", "mines.solver.cli"} <= graph["mines.cli.main"]
    assert "mines.gym.vector" in graph["mines.gym"]


def test_a_module_named_in_a_string_is_an_import(tmp_path: Path) -> None:
    """`importlib.import_module("mines.tui.app")` in the core points up a layer, as an import."""
    source = tmp_path / "mines" / "game.py"
    source.parent.mkdir()
    source.write_text(
        'import importlib\nimportlib.import_module("mines.tui.app")\nprint("mines", "mines.x")\n'
    )
    modules = {"mines.game": source, "mines.tui.app": source, "mines": source}
    found = imports_of("mines.game", source, modules)
    assert found == {"mines.tui.app"}
    assert upward_imports({"mines.game": found, "mines.tui.app": set()}) != []


def test_no_import_points_up_a_layer() -> None:
    assert upward_imports(import_graph()) == []


def test_no_import_cycles_but_the_known_ones() -> None:
    components = cycles(import_graph())
    unknown = [sorted(component) for component in components if not known(component)]
    assert unknown == [], f"import cycles: {unknown}"
    stale = [
        reason
        for reason, members in KNOWN_CYCLES.items()
        if not any(members <= component for component in components)
    ]
    assert stale == [], f"no longer cycles, remove them from KNOWN_CYCLES: {stale}"


@pytest.mark.parametrize(
    ("graph", "complaint"),
    [
        ({"mines.engine": {"mines.dense"}, "mines.dense": {"mines.engine"}}, "cycle"),
        ({"mines.game": {"mines.solver.bot"}, "mines.solver.bot": set()}, "up"),
        ({"mines.tui.app": {"mines.server.app"}, "mines.server.app": set()}, "across"),
    ],
)
def test_the_checks_catch_what_they_look_for(graph: dict[str, set[str]], complaint: str) -> None:
    if complaint == "cycle":
        assert cycles(graph) == [{"mines.engine", "mines.dense"}] * 2
        across = {
            "mines.tui.a": {"mines.gym.b"},
            "mines.gym.b": {"mines.tui.c"},
            "mines.tui.c": set(),
        }
        assert cycles(across) == [{"mines.tui", "mines.gym"}]
    else:
        assert upward_imports(graph) != []
    assert upward_imports({"mines.cli.main": {"mines.tui.app"}, "mines.tui.app": set()}) == []


HOMES = {"GameStatus": ("mines.status", "mines")}
"""Names imported only from their home module or from the package that exports them."""


def imports_away_from_home(roots: list[Path]) -> list[str]:
    """`from X import NAME` where X is neither NAME's home nor the public `mines`."""
    wrong = []
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if not isinstance(node, ast.ImportFrom) or node.level:
                    continue
                for alias in node.names:
                    homes = HOMES.get(alias.name)
                    if homes and node.module not in homes:
                        where = path.relative_to(root.parent)
                        wrong.append(f"{where}: {alias.name} from {node.module}, not {homes[0]}")
    return wrong


def test_each_name_is_imported_from_its_home() -> None:
    roots = [SOURCE / "mines", *(SOURCE.parent / folder for folder in ("tests", "benchmarks"))]
    assert imports_away_from_home(roots) == []


def test_an_import_away_from_home_is_caught(tmp_path: Path) -> None:
    (tmp_path / "old.py").write_text("from mines.symbols import Cell, GameStatus\n")
    (tmp_path / "fine.py").write_text("from mines import GameStatus\nfrom mines.status import *\n")
    assert imports_away_from_home([tmp_path]) == [
        f"{tmp_path.name}/old.py: GameStatus from mines.symbols, not mines.status"
    ]


ARCHITECTURE = SOURCE.parent / "docs" / "architecture.md"


def undocumented(text: str) -> list[str]:
    """Core modules and subpackages of `src/mines` that docs/architecture.md does not name."""
    root = SOURCE / "mines"
    parts = [f"{p.stem}.py" for p in root.glob("*.py") if p.stem != "__init__"]
    parts += [f"{p.parent.name}/" for p in root.glob("*/__init__.py")]
    return sorted(part for part in parts if f"`{part}`" not in text)


def test_the_architecture_page_names_every_module_and_package() -> None:
    """Every top-level module and every subpackage has a row in the map of the house."""
    assert undocumented(ARCHITECTURE.read_text(encoding="utf-8")) == []


def test_a_module_missing_from_the_page_is_caught() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert undocumented(text.replace("`clock.py`", "clock")) == ["clock.py"]
    assert undocumented(text.replace("`sparse/`", "sparse")) == ["sparse/"]


SERVER_LAYERS = ("common", "db", "services", "web", "api", "app", "ops")
"""The server's own layers, lowest first, each a package of `mines.server` but `app` (the
module that wires them): what every layer shares (settings, errors, metrics, logs), the
database, the services, HTTP plumbing, the HTTP API, the app, and running it (`mines serve`,
`mines admin`). A module imports its own layer or those below it."""


def server_layer(module: str) -> str | None:
    """The server layer of a module of `mines.server` (None for the package itself)."""
    parts = module.split(".")
    return parts[2] if parts[:2] == ["mines", "server"] and len(parts) > 2 else None


def server_upward_imports(graph: dict[str, set[str]]) -> list[str]:
    wrong = []
    for source, targets in sorted(graph.items()):
        here = server_layer(source)
        for target in sorted(targets):
            there = server_layer(target)
            if here is None or there is None:
                continue
            if SERVER_LAYERS.index(there) > SERVER_LAYERS.index(here):
                wrong.append(f"{source} ({here}) imports {target} ({there}), a layer above it")
    return wrong


def routers(modules: dict[str, Path]) -> set[str]:
    """The modules of the HTTP API that declare routes (an `APIRouter`)."""
    return {
        name
        for name, path in modules.items()
        if server_layer(name) == "api" and "APIRouter(" in path.read_text(encoding="utf-8")
    }


def routers_importing_routers(graph: dict[str, set[str]], with_routes: set[str]) -> list[str]:
    return [
        f"{source} imports {target}"
        for source in sorted(with_routes)
        for target in sorted(graph.get(source, set()) & with_routes)
    ]


def test_every_server_module_is_in_a_layer() -> None:
    lost = [
        name
        for name in all_modules()
        if name.startswith("mines.server.") and server_layer(name) not in SERVER_LAYERS
    ]
    assert lost == []


def test_the_server_layers_point_down() -> None:
    assert server_upward_imports(import_graph()) == []


def test_no_router_imports_another() -> None:
    """What two routers share is a dependency module of the API (`deps`, `sessions`,
    `readers`, `sockets`), so a router can move or go without breaking another."""
    modules = all_modules()
    with_routes = routers(modules)
    assert {"mines.server.api.games", "mines.server.api.live"} <= with_routes
    assert "mines.server.api.deps" not in with_routes
    assert routers_importing_routers(import_graph(), with_routes) == []


STATE_READER = "mines.server.api.deps"
"""The one module of the HTTP API that reads the app (`app.state`, where `create_app` leaves
the services); routes take its dependencies (`Games`, `Rooms`, `Token`, ...) as parameters."""


def app_reads(source: str) -> list[int]:
    """The lines of `source` that reach the app by an attribute (`request.app`,
    `websocket.app.state`) or read an `app`'s state (`app.state`); a request's own
    `request.state` is no service."""
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute)
        and (
            node.attr == "app"
            or (
                node.attr == "state" and isinstance(node.value, ast.Name) and node.value.id == "app"
            )
        )
    )


def test_routes_reach_services_only_through_dependencies() -> None:
    """No module of `server/api/` but `deps` reads `request.app` or `app.state`: a route
    declares the services it needs as parameters, and a test can swap them."""
    readers = {
        f"{name}:{line}"
        for name, path in all_modules().items()
        if server_layer(name) == "api" and name != STATE_READER
        for line in app_reads(path.read_text(encoding="utf-8"))
    }
    assert readers == set()
    assert app_reads((SOURCE / "mines" / "server" / "api" / "deps.py").read_text()) != []


def test_a_route_reading_the_app_state_is_caught() -> None:
    assert app_reads("games = request.app.state.service\n") == [1]
    assert app_reads(
        "x = 1\nasync with admitted(websocket, websocket.app.state.sockets):\n    pass\n"
    ) == [2]
    assert app_reads("def f(app):\n    return app.state.rooms\n") == [2]
    assert app_reads("started = request.state.started\n") == []
    assert app_reads("async def f(games: Games, hub: LiveHub) -> None:\n    hub.publish(1)\n") == []


def test_the_server_checks_catch_what_they_look_for() -> None:
    graph = {
        "mines.server.db.sql": {"mines.server.services.games"},
        "mines.server.services.games": {"mines.server.db.sql"},
        "mines.server.api.games": {"mines.server.api.live"},
    }
    assert server_upward_imports(graph) == [
        "mines.server.db.sql (db) imports mines.server.services.games (services), a layer above it"
    ]
    with_routes = {"mines.server.api.games", "mines.server.api.live"}
    assert routers_importing_routers(graph, with_routes) == [
        "mines.server.api.games imports mines.server.api.live"
    ]


WHERE_HEADING = "## Where new things go"


def where_paths(text: str) -> list[str]:
    """The paths the "where new things go" table of docs/architecture.md names."""
    table = text.split(WHERE_HEADING, 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    cells = [cell for row in rows[1:] for cell in row.split("|")[2:3]]
    return [
        token
        for cell in cells
        for token in cell.split("`")[1::2]
        if token.endswith((".py", "/", ".md"))
    ]


def test_the_where_new_things_go_table_matches_the_tree() -> None:
    paths = where_paths(ARCHITECTURE.read_text(encoding="utf-8"))
    assert len(paths) >= 10
    root = SOURCE.parent
    missing = [
        path
        for path in paths
        if not (SOURCE / "mines" / path).exists() and not (root / path).exists()
    ]
    assert missing == []


def test_a_wrong_path_in_the_table_is_caught() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert "`server/api/`" in text.split(WHERE_HEADING, 1)[1]
    broken = text.replace("`server/api/`", "`server/routers/`")
    assert "server/routers/" in where_paths(broken)
