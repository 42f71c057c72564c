from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    name = "tournament.matches"
    label = "matches"
    verbose_name = _("Matches")

    def ready(self) -> None:
        # A referee's account is deleted with the referee: the event's life asks the stages.
        from tournament.matches import (
            receivers,  # noqa: F401
            tasks,  # noqa: F401  # registered for ``task_send``
        )
