"""The Celery app, and how a write queues a task.

Without ``CELERY_BROKER_URL`` tasks run eagerly in-process (the zero-setup default of
``make demo``); with a Redis or RabbitMQ broker they go to ``celery -A tournament worker``.

A service queues a task by its registered name (:func:`task_send`), never by importing the tasks
module: a task module imports the services it calls, so importing it back from them would be a
circle. The apps import their own ``tasks`` modules when they are ready (``AppConfig.ready``), so
every task is registered in the web process as in a worker.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

app = Celery("tournament")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def task_send(
    name: str, *, args: Sequence[Any] = (), kwargs: dict[str, Any] | None = None, eta: datetime | None = None
) -> None:
    """Queue the task registered as ``name`` (its module's path and function,
    ``tournament.matches.tasks.round_time_up``); in eager mode it runs at once."""
    app.tasks[name].apply_async(args=list(args), kwargs=kwargs or {}, eta=eta)
