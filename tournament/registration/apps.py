from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RegistrationConfig(AppConfig):
    name = "tournament.registration"
    label = "registration"
    verbose_name = _("Registration")
