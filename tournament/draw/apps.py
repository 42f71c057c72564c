from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DrawConfig(AppConfig):
    name = "tournament.draw"
    label = "draw"
    verbose_name = _("Draw")

    def ready(self) -> None:
        # Winners of a fixed bracket advance when a match is signed off.
        from tournament.draw import receivers  # noqa: F401
