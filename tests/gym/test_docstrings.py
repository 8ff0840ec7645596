"""The examples in the gym package's docstrings run, and give what they say."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

pytest.importorskip("gymnasium", reason="the gym extra is not installed")

import mines.gym

MODULES = sorted(
    name
    for _, name, _ in pkgutil.iter_modules(mines.gym.__path__, "mines.gym.")
    if importlib.util.find_spec(name) is not None
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ImportError as missing:  # a module of an extra that is not installed
        pytest.skip(str(missing))
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_the_env_classes_show_how_to_use_them() -> None:
    for name in ("mines.gym.env", "mines.gym.vector", "mines.gym.evaluation"):
        finder = doctest.DocTestFinder()
        examples = sum(len(test.examples) for test in finder.find(importlib.import_module(name)))
        assert examples >= 3, name
