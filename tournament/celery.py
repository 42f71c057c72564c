"""The Celery app.

Without ``CELERY_BROKER_URL`` tasks run eagerly in-process (the zero-setup default of
``make demo``); with a Redis or RabbitMQ broker they go to ``celery -A tournament worker``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

app = Celery("tournament")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
