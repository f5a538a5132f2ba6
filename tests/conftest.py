"""Every test runs with its own per-user data folder, so commands that record in the default
store (``noughts play``, ``match``, ``tournament``) never touch the real one; a project store
(a ``.noughts`` folder that ``make run`` made in the clone) is ignored for the same reason."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_store(tmp_path_factory: pytest.TempPathFactory) -> None:
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("xdg-data"))
    os.environ["NOUGHTS_PROJECT_STORE"] = "0"
