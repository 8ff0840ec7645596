"""Mutation testing (`./dev mutate`): how many one-line changes to the code its tests notice.

`./dev mutate [TARGET ...]` runs mutmut over each target (a module or a few) in turn and prints
the share of its mutants the tests kill; with no target, every one of `TARGETS`. It is a
benchmark, not a test: CPU-heavy (an hour or more for all of it on two cores), so it runs at the
lowest CPU priority and is never part of `./dev test`. Each target keeps its own work folder in
`.mutation/TARGET/`, so a run that is stopped goes on where it was, and a second run re-tests
only the functions that changed since. docs/mutation.md has the figures and the survivors judged
equivalent.

Each mutant runs only the tests that call the function it changed (mutmut records which tests
call which function in a first, clean run of the target's `tests`), fastest first, stopping at
the first failure. A mutant that loops or swallows memory is stopped by a CPU-time limit (a
multiple of its tests' clean time) and by an address-space limit; both count as killed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".mutation"
CORE_TESTS = ("tests/core",)
"""The core's own tests: rules, placement, views, records, replays and races, on both engines."""
ENGINE_TESTS = ("tests/core", "tests/sparse")
"""With the tests that play the two engines against each other and on huge boards."""


@dataclass(frozen=True)
class Target:
    """What one run mutates (paths under src/, globs allowed) and the tests that judge it."""

    files: tuple[str, ...]
    tests: tuple[str, ...] = CORE_TESTS


TARGETS: dict[str, Target] = {
    "game": Target(("src/mines/game.py",)),
    "engine": Target(("src/mines/engine.py", "src/mines/engine_choice.py")),
    "dense": Target(("src/mines/dense.py",), ENGINE_TESTS),
    "sparse": Target(("src/mines/sparse/*.py",), ENGINE_TESTS),
    "placement": Target(("src/mines/placement.py",)),
    "view": Target(("src/mines/view.py",)),
    "grid": Target(("src/mines/grid.py",), ENGINE_TESTS),
    "record": Target(("src/mines/record.py",)),
    "replay": Target(("src/mines/replay.py",)),
    "race": Target(("src/mines/race.py",), ("tests/core/test_race.py",)),
    # The server's move path: from a request to a stored, answered move. Name its modules here
    # as they are split or renamed; its tests are the API's own.
    "server": Target(
        (
            "src/mines/server/services/games.py",
            "src/mines/server/services/cache.py",
            "src/mines/server/services/present.py",
            "src/mines/server/db/layouts.py",
        ),
        (
            "tests/server/test_api.py",
            "tests/server/test_client_api.py",
            "tests/server/test_cache.py",
            "tests/server/test_layouts.py",
            # Ranking on the move path: which win ranks, the daily board, the summary's reason.
            "tests/server/test_daily.py",
            "tests/server/test_leaderboard.py",
        ),
    ),
}
"""Every target `./dev mutate` knows, in the order it runs them."""

KILLED = {"killed", "timeout", "segfault", "caught by type check"}
"""Verdicts that mean a test (or a limit a test run hit) noticed the mutant."""
LIVED = {"survived", "no tests", "suspicious"}
"""Verdicts that mean no test noticed it: "no tests" is a mutant no test even reaches."""
MEMORY_LIMIT = 6 << 30
"""Bytes of address space a test process may map: the suite needs under 3 GiB of it."""


def mutmut_section(target: Target, timeout_multiplier: float) -> str:
    """The `[tool.mutmut]` table that makes mutmut run `target`."""
    settings = {
        "source_paths": ["src/"],
        "only_mutate": list(target.files),
        "pytest_add_cli_args_test_selection": list(target.tests),
        "pytest_add_cli_args": ["-p", "no:cacheprovider"],
        "also_copy": ["benchmarks/"],
        "timeout_multiplier": timeout_multiplier,
        # Results keyed by content, not by git: the work folder is not a checkout.
        "use_git_change_detection": False,
    }
    lines = ["", "[tool.mutmut]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in settings.items()]
    return "\n".join(lines) + "\n"


def prepare(name: str, target: Target, timeout_multiplier: float) -> Path:
    """The target's work folder: links to the tree, and the project's settings plus mutmut's."""
    folder = WORK / name
    folder.mkdir(parents=True, exist_ok=True)
    for part in ("src", "tests", "benchmarks"):
        link = folder / part
        if not link.is_symlink():
            link.symlink_to(ROOT / part, target_is_directory=True)
    settings = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    wanted = settings + mutmut_section(target, timeout_multiplier)
    pyproject = folder / "pyproject.toml"
    if not pyproject.exists() or pyproject.read_text(encoding="utf-8") != wanted:
        pyproject.write_text(wanted, encoding="utf-8")
    return folder


def limit_memory() -> None:
    """In the mutmut process (and so in every test process it forks): a bounded address space."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def mutmut(folder: Path, *args: str, log: Path | None = None) -> subprocess.CompletedProcess[str]:
    program = Path(sys.executable).with_name("mutmut")
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    output = log.open("w", encoding="utf-8") if log else subprocess.PIPE
    try:
        return subprocess.run(
            [str(program), *args],
            cwd=folder,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            text=True,
            preexec_fn=limit_memory,
            check=False,
        )
    finally:
        if log and not isinstance(output, int):
            output.close()


@dataclass(frozen=True)
class Tally:
    """The verdicts of one target's mutants."""

    verdicts: dict[str, str]
    """Each mutant's name and verdict."""

    @property
    def killed(self) -> int:
        return sum(v in KILLED for v in self.verdicts.values())

    @property
    def lived(self) -> list[str]:
        return sorted(name for name, v in self.verdicts.items() if v in LIVED)

    @property
    def judged(self) -> int:
        """Mutants with a verdict (not "skipped" or "not checked")."""
        return self.killed + len(self.lived)

    @property
    def rate(self) -> float:
        return self.killed / self.judged if self.judged else 1.0


VERDICTS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped"}
VERDICTS |= {36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout"}
VERDICTS |= {-9: "segfault", -11: "segfault", 37: "caught by type check"}
"""mutmut's exit codes as its own verdicts (mutmut.stats.status_by_exit_code)."""


def tally(folder: Path) -> Tally:
    """The verdicts mutmut stored for the mutants of the work folder."""
    verdicts: dict[str, str] = {}
    for meta in sorted((folder / "mutants" / "src").rglob("*.py.meta")):
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        for name, code in codes.items():
            verdicts[name] = "not checked" if code is None else VERDICTS.get(code, "suspicious")
    return Tally(verdicts)


def write_survivors(folder: Path, lived: Sequence[str]) -> Path:
    """Each surviving mutant's diff, in one file to read and judge."""
    out = folder / "survivors.txt"
    with out.open("w", encoding="utf-8") as handle:
        for name in lived:
            shown = mutmut(folder, "show", name)
            handle.write(shown.stdout.rstrip() + "\n\n")
    return out


def run_target(name: str, args: argparse.Namespace) -> Tally:
    target = TARGETS[name]
    folder = prepare(name, target, args.timeout_multiplier)
    log = folder / "run.log"
    print(f"== {name}: mutating {', '.join(target.files)}; judged by {', '.join(target.tests)}")
    print(f"   (mutmut's progress: {log.relative_to(ROOT)})", flush=True)
    # mutmut keeps a verdict until the function changes; tests added since may kill what
    # survived before, so those mutants are judged again after the new and changed ones.
    survivors = tally(folder).lived if (folder / "mutants").exists() else []
    jobs = ("--max-children", str(args.jobs))
    done = mutmut(folder, "run", *jobs, log=log)
    if done.returncode == 0 and survivors:
        print(f"   judging again the {len(survivors)} mutants that survived the last run")
        done = mutmut(folder, "run", *jobs, *survivors, log=folder / "rerun.log")
    result = tally(folder)
    if done.returncode != 0:
        print(f"   mutmut stopped with status {done.returncode}; the end of its log says why")
    diffs = write_survivors(folder, result.lived)
    print(f"   {describe(name, result)}; survivors in {diffs.relative_to(ROOT)}", flush=True)
    return result


def generated(folder: Path) -> None:
    """Make mutmut write the target's mutants (and record which tests reach what) without
    judging any: a run asked for a mutant that does not exist stops right after that."""
    if not any((folder / "mutants" / "src").rglob("*.py.meta")):
        mutmut(folder, "run", "mines.no such mutant", log=folder / "generate.log")
    if not any((folder / "mutants" / "src").rglob("*.py.meta")):
        raise SystemExit(f"mutmut wrote no mutants; {folder / 'generate.log'} says why")


def wilson(killed: int, judged: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % interval of a kill rate measured on a random sample (Wilson's score interval,
    right near 0 % and 100 %, where the normal approximation is not)."""
    if not judged:
        return 0.0, 1.0
    rate = killed / judged
    centre = (rate + z * z / (2 * judged)) / (1 + z * z / judged)
    spread = z * math.sqrt(rate * (1 - rate) / judged + z * z / (4 * judged * judged))
    spread /= 1 + z * z / judged
    return max(0.0, centre - spread), min(1.0, centre + spread)


def to_judge(verdicts: dict[str, str], chosen: list[str]) -> list[str]:
    """The chosen mutants a sample runs: a verdict kept from an earlier run stands, but for
    survivors (tests may have come since) and timeouts (a loaded machine or a low multiplier
    stops mutants that would pass)."""
    return [m for m in chosen if verdicts[m] in LIVED | {"not checked", "timeout"}]


def run_sample(name: str, args: argparse.Namespace) -> Tally:
    """Judge a random `args.sample` of the target's mutants (the same ones for the same seed
    and code) and estimate the whole target's kill rate from them."""
    target = TARGETS[name]
    folder = prepare(name, target, args.timeout_multiplier)
    files = ", ".join(target.files)
    print(f"== {name}: a sample of {args.sample} mutants of {files} (seed {args.seed})")
    print(f"   (mutmut's progress: {(folder / 'sample.log').relative_to(ROOT)})", flush=True)
    generated(folder)
    verdicts = tally(folder).verdicts
    chosen = sorted(
        random.Random(args.seed).sample(sorted(verdicts), min(args.sample, len(verdicts)))
    )
    pending = to_judge(verdicts, chosen)
    jobs = ("--max-children", str(args.jobs))
    if pending:
        mutmut(folder, "run", *jobs, *pending, log=folder / "sample.log")
        verdicts = tally(folder).verdicts
    # A run after the target's tests changed may set aside the kept verdicts of mutants it
    # was not asked to judge: judge those, and only those, once more.
    set_aside = [m for m in chosen if verdicts[m] == "not checked"]
    if set_aside:
        mutmut(folder, "run", *jobs, *set_aside, log=folder / "sample.log")
        verdicts = tally(folder).verdicts
    result = Tally({m: verdicts[m] for m in chosen})
    diffs = write_survivors(folder, result.lived)
    low, high = wilson(result.killed, result.judged)
    print(
        f"   {describe(name, result)}; of all {len(verdicts):,} mutants, 95 % interval "
        f"{low:.1%} to {high:.1%}; survivors in {diffs.relative_to(ROOT)}",
        flush=True,
    )
    return result


def describe(name: str, result: Tally) -> str:
    counts = Counter(result.verdicts.values())
    rest = ", ".join(f"{n} {verdict}" for verdict, n in sorted(counts.items()))
    return f"{name}: {result.killed} of {result.judged} mutants killed ({result.rate:.1%}); {rest}"


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="./dev mutate",
        description="Mutation testing of the core, race and the server's move path, target by "
        "target, at the lowest CPU priority; results are kept in .mutation/ and reused.",
    )
    parser.add_argument(
        "targets",
        nargs="*",
        metavar="TARGET",
        help=f"what to mutate (default: all): {', '.join(TARGETS)}",
    )
    parser.add_argument("--jobs", type=int, default=2, help="mutants tested at once (default 2)")
    parser.add_argument(
        "--timeout-multiplier",
        type=float,
        default=3.0,
        help="a mutant's CPU time limit, in multiples of its tests' clean time (default 3)",
    )
    parser.add_argument(
        "--sample",
        type=int,
        metavar="N",
        help="judge a random N of each target's mutants and estimate its kill rate with a 95 %% "
        "interval: for a target too big to judge whole in a session (sparse: about 1,650 "
        "mutants, each reached by a minute of property tests)",
    )
    parser.add_argument(
        "--seed", type=int, default=29, help="which sample --sample draws (default 29)"
    )
    parser.add_argument(
        "--report", action="store_true", help="print the kept results only; mutate nothing"
    )
    args = parser.parse_args(argv)
    unknown = [name for name in args.targets if name not in TARGETS]
    if unknown:
        parser.error(f"unknown target {', '.join(unknown)}; known: {', '.join(TARGETS)}")
    return args


def run(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    names = args.targets or list(TARGETS)
    if not args.report:
        os.nice(19)  # the machine is shared: every other job comes first
        for name in names:
            if args.sample:
                run_sample(name, args)
            else:
                run_target(name, args)
    print("== kill rates (killed / killed + survived; 'no tests' counts as survived)")
    for name in names:
        folder = WORK / name
        if (folder / "mutants").exists():
            print(f"   {describe(name, tally(folder))}")
        else:
            print(f"   {name}: not run yet")
    return 0


if __name__ == "__main__":
    sys.exit(run())
