from django.apps import AppConfig


class SiteConfig(AppConfig):
    """An app so that Django finds the ``demo`` command; it has no models."""

    name = "tournament.site"
    label = "site"
