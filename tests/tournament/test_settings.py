"""Settings come from the environment; production refuses the development secret key."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    # A fresh process with only the environment a deployment would have (nothing a test set).
    dropped = {"SECRET_KEY", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {key: value for key, value in os.environ.items() if key not in dropped}
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, timeout=120
    )


def test_production_refuses_the_development_secret_key():
    result = run("manage.py", "check", DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY must be set in production" in result.stderr


def test_deploy_checks_pass_with_production_settings():
    result = run(
        "manage.py", "check", "--deploy", "--fail-level", "WARNING",
        DEBUG="0", SECRET_KEY="x" * 64 + "-not-a-real-key", ALLOWED_HOSTS="guandan.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_zero_setup_defaults(settings):
    assert settings.LANGUAGE_CODE == "zh-hans"
    assert settings.TIME_ZONE == "Asia/Shanghai"
    assert [code for code, _ in settings.LANGUAGES] == ["zh-hans", "en"]


def test_one_setting_counts_the_proxies():
    """The login lockout's proxy count of its own is gone: a deployment still setting it is told."""
    result = run("manage.py", "check", AXES_PROXY_COUNT="1")
    assert result.returncode != 0 and "replaced by TRUSTED_PROXIES" in result.stderr
    assert run("manage.py", "check", TRUSTED_PROXIES="1").returncode == 0
