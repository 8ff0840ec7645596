"""Optional extras: the modules each one brings, and the one-line message when one is missing."""

from __future__ import annotations

import importlib.util

EXTRAS: dict[str, dict[str, str]] = {
    "tui": {"textual": "Textual"},
    "remote": {"httpx": "httpx"},
    "server": {
        "fastapi": "FastAPI",
        "uvicorn": "uvicorn",
        "psycopg": "psycopg",
        "limits": "limits",
        "prometheus_client": "prometheus-client",
        "confusable_homoglyphs": "confusable-homoglyphs",
        "argon2": "argon2-cffi",
        "fastapi_offline": "fastapi-offline",
        "pydantic_settings": "pydantic-settings",
    },
    "gym": {"gymnasium": "Gymnasium", "pettingzoo": "PettingZoo"},
    "rl": {
        "torch": "PyTorch",
        "stable_baselines3": "stable-baselines3",
        "sb3_contrib": "sb3-contrib",
    },
}
"""Each extra of pyproject.toml: the modules of its packages that `mines` imports, and the
names those packages go by."""


class MissingExtraError(ImportError):
    """A part of `mines` needs an extra that is not installed; the message says what to install."""


def missing_extra(extra: str, purpose: str) -> str | None:
    """The sentence that names what `purpose` lacks and how to install it, or None if nothing."""
    modules = EXTRAS[extra]
    missing = [modules[name] for name in modules if importlib.util.find_spec(name) is None]
    if not missing:
        return None
    names = " and ".join([", ".join(missing[:-1]), missing[-1]] if missing[:-1] else missing)
    verb = "is" if len(missing) == 1 else "are"
    return f'{purpose} needs {names}, which {verb} not installed: pip install "mines[{extra}]"'


def require_extra(extra: str, purpose: str) -> None:
    """Raise `MissingExtraError` unless every module of `extra` can be imported."""
    if problem := missing_extra(extra, purpose):
        raise MissingExtraError(problem)
