import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
django_application = get_wsgi_application()

from tournament.standings.public_responses import PublicResponses  # noqa: E402 (needs the settings)

# The public pages' whole responses, kept by each worker and served before Django while what they
# were built from is unchanged (tournament/standings/public_responses.py).
application = PublicResponses(django_application)

# What the worker loaded (Django, the apps, the URL patterns, the templates' modules) lives as long
# as it does: kept out of the collector's sight, a full collection during a standings build no
# longer walks it (the builds already pause the collector while they run: tournament/standings).
gc.freeze()
