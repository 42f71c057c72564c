"""The Django project: settings, URLs, the Celery app, and the apps as sub-packages."""

from tournament.celery import app as celery_app

__all__ = ["celery_app"]
