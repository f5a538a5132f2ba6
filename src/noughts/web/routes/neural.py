"""The neural panel: ``/api/neural/runs``, ``/api/neural/runs/{id}``, ``/api/neural/explain``
(the endpoints and what they answer: :mod:`noughts.web.neural`).
"""

from __future__ import annotations

from fastapi import APIRouter

from noughts.web.arena import Arena
from noughts.web.neural import register_neural

__all__ = ["router"]


def router(arena: Arena) -> APIRouter:
    """The neural panel's endpoints."""
    routes = APIRouter()
    register_neural(routes, arena)
    return routes
