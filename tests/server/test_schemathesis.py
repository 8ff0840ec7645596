"""Schemathesis fuzzes every operation in `/openapi.json`: never a 500, answers as documented."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import Case
from schemathesis.specs.openapi.checks import positive_data_acceptance

from mines.server.app import create_app
from mines.server.common.settings import Settings
from mines.server.db.database import open_storage
from mines.server.services.games import GameService
from tests.server.conftest import UNLIMITED

DATABASE = Path(tempfile.mkdtemp(prefix="mines-schemathesis-")) / "games.sqlite3"
# Made at import, before any fixture could own it (the schema is read from this app then).
atexit.register(shutil.rmtree, DATABASE.parent, ignore_errors=True)
# Small limits keep generated boards quick; the checks are the same at any size.
# One fuzzing client is one address: rate limits would answer 429 to most of its requests.
SETTINGS = Settings.model_validate(
    {
        "database": f"sqlite:///{DATABASE}",
        "max_cells": 10_000,
        "view_limit": 10_000,
        "rates": UNLIMITED,
    }
)
app = create_app(GameService(open_storage(SETTINGS.database), SETTINGS))
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@schema.parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_schema(case: Case[Any]) -> None:
    # Every check but one: a schema cannot say that mines must be fewer than rows x cols or
    # that a window must fit its board, so schema-valid requests may rightly get a 422.
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
