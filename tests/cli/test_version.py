"""`mines --version` names the installed version."""

from __future__ import annotations

import pytest

import mines
from mines.cli.main import main


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"mines {mines.__version__}"
