"""Fuzz the arena's API from its own OpenAPI schema (schemathesis): no input gets a 5xx answer,
and every 4xx answer is one ``{"error": ...}`` message.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from noughts.web import Limits, create_app

# small limits, so generated batches and solves stay short
app = create_app(
    ":memory:", limits=Limits(max_batch_games=20, max_solve_seconds=0.5, default_solve_seconds=0.2)
)
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


def check(case: Any) -> None:
    response = case.call()
    assert response.status_code < 500, (case.method, case.path, response.text)
    if 400 <= response.status_code < 500:
        body = response.json()
        assert list(body) == ["error"] and isinstance(body["error"], str) and body["error"]


@schema.parametrize()
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_input_gets_a_server_error(case: Any) -> None:
    check(case)


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_input_gets_a_server_error_long(case: Any) -> None:
    check(case)
