"""The API is one router per area (``noughts.web.routes``, listed in ``web.app.ROUTERS``): every
endpoint of the app comes from exactly one of them, and an area added to the list is served.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from noughts.store import Store
from noughts.web import app as web_app
from noughts.web.app import ROUTERS, create_app


def _endpoints(router: APIRouter) -> set[tuple[str, str]]:
    return {(m, r.path) for r in router.routes if isinstance(r, APIRoute) for m in r.methods}


def test_every_endpoint_comes_from_exactly_one_area() -> None:
    app = create_app(store=Store(":memory:"))
    arena = app.state.arena
    areas = {area.__name__.rpartition(".")[2]: _endpoints(area.router(arena)) for area in ROUTERS}
    served = {(m, p) for m, p in _endpoints_of_schema(app.openapi())}
    listed = [e for found in areas.values() for e in found if e[1] != "/"]
    assert len(listed) == len(set(listed)), "an endpoint in two areas"
    assert set(listed) == served
    assert {
        "site",
        "play",
        "analysis",
        "board",
        "records",
        "batches",
        "training",
        "leaderboard",
        "neural",
    } == set(areas)
    assert ("POST", "/api/analyse") in areas["analysis"] and ("GET", "/api/health") in areas["site"]


def _endpoints_of_schema(schema: dict) -> set[tuple[str, str]]:  # type: ignore[type-arg]
    return {(method.upper(), path) for path, ops in schema["paths"].items() for method in ops}


def test_an_area_added_to_the_list_is_served(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    class Extra:
        __name__ = "extra"

        @staticmethod
        def router(arena: object) -> APIRouter:
            routes = APIRouter()

            @routes.get("/api/extra")
            def extra() -> dict[str, str]:
                return {"area": "extra"}

            return routes

    monkeypatch.setattr(web_app, "ROUTERS", (*ROUTERS, Extra))
    client = TestClient(create_app(store=Store(":memory:")))
    assert client.get("/api/extra").json() == {"area": "extra"}
    assert client.get("/api/presets").status_code == 200
