"""The web arena: ``noughts serve`` runs :func:`create_app` under uvicorn.

A FastAPI app over the library (no game logic of its own) and one framework-free page that uses
its JSON API; see :mod:`noughts.web.app`.
"""

from noughts.web.app import create_app
from noughts.web.limits import Limits

__all__ = ["Limits", "create_app"]
