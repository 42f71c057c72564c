"""Settings, all read from the environment in this one place (django-environ).

Zero-setup defaults (``make demo``): SQLite under ``var/`` in WAL mode with IMMEDIATE
transactions, Celery tasks run eagerly in-process, a local-memory cache. Production sets
``DATABASE_URL`` (PostgreSQL), ``CELERY_BROKER_URL`` (Redis or RabbitMQ), ``CACHE_URL`` or
``REDIS_URL``, ``SECRET_KEY``, ``DEBUG=0`` and ``ALLOWED_HOSTS``.
"""

from datetime import timedelta
from pathlib import Path
from typing import Any

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEVELOPMENT_SECRET_KEY = "development-only-insecure-key-never-use-in-production"
DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = env.str("SECRET_KEY", default=DEVELOPMENT_SECRET_KEY)
if not DEBUG and SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set in production (DEBUG=0).")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# How many reverse proxies stand in front of the application, each appending the address it was
# reached from to X-Forwarded-For (the edge one setting it): the client is the entry the outermost
# wrote (tournament/proxies.py). 0, the default, reads only the socket's peer. The one setting asked
# by the API's throttles, the audit's address and the login lockout (the table codes' limit reads no
# address at all: it counts per table and per phone).
TRUSTED_PROXIES = env.int("TRUSTED_PROXIES", default=0)
if TRUSTED_PROXIES < 0:
    raise ImproperlyConfigured("TRUSTED_PROXIES is a number of proxies: 0 or more.")
if "AXES_PROXY_COUNT" in env:
    raise ImproperlyConfigured("AXES_PROXY_COUNT is replaced by TRUSTED_PROXIES (it counts the same proxies).")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our own static files: the docs work offline
    "simple_history",
    "django_htmx",
    "tournament.registration",
    "tournament.draw",
    "tournament.matches",
    "tournament.standings",
    "tournament.exports",
    "tournament.api",
    "tournament.site",  # the top: the root URL map, the servers' entry points, the demo command
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "tournament.middleware.PolicyOnceMiddleware",  # CSP: the site's own scripts and styles only (django-csp's)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "tournament.locale.ChineseFirstLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tournament.middleware.MessagesMiddleware",  # Django's, its storage class imported once
    "tournament.errors.UserErrorMiddleware",  # a user's error no page caught: its 4xx, never a 500
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "tournament.htmx.HtmxMetaMiddleware",  # django-htmx's, reading request.META
    "simple_history.middleware.HistoryRequestMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks: turns a lockout into HTTP 429
]

ROOT_URLCONF = "tournament.site.urls"
WSGI_APPLICATION = "tournament.site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournament.registration.context_processors.roles",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
# SQLite is the zero-setup default. WAL lets readers run beside the one writer, and IMMEDIATE
# transactions take the write lock at BEGIN, so two result entries queue instead of failing
# half-way with "database is locked" (docs/design.md: nothing lost, nothing doubled).
VAR_DIR.mkdir(exist_ok=True)
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'tournament.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
else:
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
    DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Django's, its health check of a kept connection asking the socket before the server.
        DATABASES["default"]["ENGINE"] = "tournament.postgres"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


# --- Cache ----------------------------------------------------------------------------------
def cache_config(url: str) -> dict[str, Any]:
    """The cache of ``url``; on Redis, django-redis's with reads over a connection each thread keeps
    (tournament/cache_client.py: a public request's reads cost a third of the CPU)."""
    config: dict[str, Any] = env.cache_url_config(url)
    if config["BACKEND"] == "django_redis.cache.RedisCache":
        config.setdefault("OPTIONS", {}).setdefault("CLIENT_CLASS", "tournament.cache_client.HeldConnectionClient")
    return config


_cache_url = env.str("CACHE_URL", default="") or env.str("REDIS_URL", default="")
CACHES = {
    "default": cache_config(_cache_url)
    if _cache_url
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tournament"}
}

# --- Celery ---------------------------------------------------------------------------------
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="") or None
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or None
# No broker: run tasks eagerly in-process, so a laptop needs no services (docs/design.md: works on one laptop).
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = env.str("TIME_ZONE", default="Asia/Shanghai")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# `celery -A tournament beat`: every minute, store the time calls and claim confirmations that are
# due (a page only shows them; the tasks scheduled for each cap may be lost with a broker restart).
CELERY_BEAT_SCHEDULE = {
    "clock-sweep": {"task": "tournament.matches.tasks.clock_sweep", "schedule": 60.0},
    # self-scheduled rounds (docs/rules.md §12.1): the double forfeits of every deadline passed, if the
    # task scheduled for it was lost
    "deadline-sweep": {"task": "tournament.matches.tasks.deadline_sweep", "schedule": 60.0},
}

# --- Auth -----------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one username from
# one address, that pair is locked out for AXES_COOLOFF_MINUTES (pages and the API token login).
AUTHENTICATION_BACKENDS = [
    "tournament.throttling.LoginThrottle",  # django-axes; see tournament/throttling.py
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "tournament.proxies.client_ip"  # the one answer to "who is asking" (below)
# The login page's lockout answer: the site's page in the user's language, saying for how long (axes'
# default is one line of English text); the API's token login answers its own JSON (api/auth_views.py).
AXES_LOCKOUT_CALLABLE = "tournament.throttling.lockout_page"
LOGIN_URL = "login"
# A referee's one-time sign-in link (QR code) is valid this long after the organiser made it.
REFEREE_LINK_HOURS = env.int("REFEREE_LINK_HOURS", default=24)
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- Language and time ----------------------------------------------------------------------
LANGUAGE_CODE = env.str("LANGUAGE_CODE", default="zh-hans")
LANGUAGES = [("zh-hans", _("简体中文")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="Asia/Shanghai")
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles"))
WHITENOISE_USE_FINDERS = DEBUG  # development serves straight from static/, no collectstatic needed
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
MEDIA_ROOT = env.str("MEDIA_ROOT", default=str(VAR_DIR / "media"))
MEDIA_URL = "media/"

# --- REST framework -------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "tournament.api.authentication.PreparedTokenAuthentication",  # DRF's, compiled once
    ],
    # a new view is private unless it says otherwise (the public API says AllowAny itself)
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON bounded in size and nesting (a thousand "[" was a RecursionError: tournament/api/parsers.py)
    "DEFAULT_PARSER_CLASSES": [
        "tournament.api.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "tournament.api.openapi.ApiSchema",  # closed request bodies (api/openapi.py)
    "DEFAULT_PAGINATION_CLASS": "tournament.api.schema.StrictPagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "tournament.api.errors.api_exception_handler",
    # our throttles ask tournament.proxies.client_ip; DRF's own would read this, the same count
    "NUM_PROXIES": TRUSTED_PROXIES,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Guandan tournament manager API",
    "DESCRIPTION": "Tournaments, draws, results and standings of Guandan (掼蛋) and Tractor events.",
    "VERSION": "0.1.0",
    # a pair's side (NS/EW) is one enum wherever it appears (adjustments, Tractor penalties and revokes)
    "ENUM_NAME_OVERRIDES": {"SideEnum": ["NS", "EW"], "ThreeSeatEnum": ["E", "S", "W"]},
    # no CDN: a venue's network often has no internet, and the docs page must still work
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # every operation documents the 4xx answers of the one error mapping (tournament/api/schema.py)
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournament.api.schema.error_responses",
        "tournament.api.schema.request_bodies_required",
    ],
}

# --- Content-Security-Policy (django-csp) ---------------------------------------------------
# Scripts and styles only from this site (htmx is vendored in static/); nothing inline, so neither
# 'unsafe-inline' nor 'unsafe-eval' (templates carry data-* attributes that static/js/site.js reads;
# htmx's injected indicator style and hx-on evaluation are off in base.html). One inline handler
# stays, the print buttons' onclick="window.print()", allowed by its hash and nothing else
# ('unsafe-hashes' lets a hash match a handler attribute). Only the API's documentation page
# (Swagger UI's inline styles) widens the policy, in tournament/api/urls.py.
PRINT_HANDLER_HASH = "'sha256-MguIPR6qNR8D3B+eAlK+bIRTZe8t3wkOY4B/56Me9FU='"  # of: window.print()
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, "'unsafe-hashes'", PRINT_HANDLER_HASH],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# --- Security (production) -------------------------------------------------------------------
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=True)
    CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=True)
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 30)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SILENCED_SYSTEM_CHECKS = ["security.W021"]  # HSTS preload is the operator's decision

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}

# --- Product settings -----------------------------------------------------------------------
# Roster import bounds (README "Limits"): rows read (blank rows count), the upload's size, the size
# of its parts once unpacked, and the seconds spent reading it.
ROSTER_IMPORT_MAX_ROWS = env.int("ROSTER_IMPORT_MAX_ROWS", default=20000)
ROSTER_IMPORT_MAX_BYTES = env.int("ROSTER_IMPORT_MAX_BYTES", default=5 * 2**20)
ROSTER_IMPORT_MAX_UNPACKED_BYTES = env.int("ROSTER_IMPORT_MAX_UNPACKED_BYTES", default=20 * 2**20)
ROSTER_IMPORT_MAX_SECONDS = env.float("ROSTER_IMPORT_MAX_SECONDS", default=20.0)
# The public API's rate per client address: generous, since a venue's phones may share one address.
PUBLIC_API_THROTTLE_RATE = env.str("PUBLIC_API_THROTTLE_RATE", default="1200/minute")
# Standings are rebuilt at most this often per stage while results flow in (a finished match shows
# within this plus one build: tournament.standings.cache).
PUBLIC_REBUILD_SECONDS = env.float("PUBLIC_REBUILD_SECONDS", default=3.0)
# Each worker keeps the public pages' last responses, up to this many megabytes of them, and serves
# one again while what it was built from is unchanged (tournament.standings.public_responses; 0: off).
PUBLIC_RESPONSE_CACHE_MB = env.float("PUBLIC_RESPONSE_CACHE_MB", default=64.0)
# New public responses one client address may add to the shared cache per 10 minutes (each kept 10
# minutes): a bound on what a client asking ever-new pages (?q=…, ?page=…) can make Redis hold.
PUBLIC_RESPONSE_NEW_PER_CLIENT = env.int("PUBLIC_RESPONSE_NEW_PER_CLIENT", default=300)
# While this many connections wait in the public pool's queue (a tenth of a second of its work or
# more), the pages' polls are answered 503 with Retry-After (PUBLIC_SHED_RETRY_SECONDS), so result
# entry keeps the cores (tournament.overload; 0: never).
PUBLIC_SHED_QUEUE = env.int("PUBLIC_SHED_QUEUE", default=100)
PUBLIC_SHED_RETRY_SECONDS = env.int("PUBLIC_SHED_RETRY_SECONDS", default=10)
