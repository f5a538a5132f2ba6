"""The arena's API, one router per area: each module has ``router(arena) -> APIRouter`` with its
endpoints, each a few lines over a library call or a worker's task; :data:`noughts.web.app.ROUTERS`
lists them and :func:`noughts.web.app.create_app` includes them. What they share (path and token
parameters, how a request's position, client and budget are read) is :mod:`noughts.web.routes.common`.

========================  ======================================================================
module                    endpoints
========================  ======================================================================
:mod:`~.site`             the page, ``/api/health``, ``/api/presets``, ``/api/game-info``, ``/api/agents``
:mod:`~.play`             ``/api/games`` and each game's ``move``, ``turn``, ``undo``, ``seats``
:mod:`~.analysis`         ``/api/analyse``, ``/api/count``, ``/api/estimate``, ``/api/evaluate``, ``/api/suggest``
:mod:`~.board`            the analysis board: ``/api/board``, ``/api/step``, ``/api/review``
:mod:`~.records`          ``/api/records/read``, ``/write``, ``/import``; ``/api/games/{id}/record``
:mod:`~.batches`          ``/api/batches``
:mod:`~.training`         ``/api/learners``, ``/api/training``, the agents' download and upload
:mod:`~.leaderboard`      ``/api/leaderboard``
:mod:`~.neural`           ``/api/neural/runs``, ``/api/neural/explain`` (:mod:`noughts.web.neural`)
========================  ======================================================================
"""
