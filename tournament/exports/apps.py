from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ExportsConfig(AppConfig):
    name = "tournament.exports"
    label = "exports"
    verbose_name = _("Exports")

    def ready(self) -> None:
        from tournament.exports import (
            signals,
            tasks,  # noqa: F401  # registered for ``task_send``
        )

        signals.connect()
