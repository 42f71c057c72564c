"""Content-Security-Policy: only the site's own scripts and styles, nothing inline, on
every page; no template writes an inline script, style or event handler."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory, english_client, organiser

PRINT_HASH = "'sha256-MguIPR6qNR8D3B+eAlK+bIRTZe8t3wkOY4B/56Me9FU='"
pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def _policy(response) -> dict[str, list[str]]:
    header = response.headers["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


@pytest.mark.parametrize("path", ["/", "/accounts/login/"])
def test_pages_send_a_policy_of_the_sites_own_scripts_and_styles(client, path):
    policy = _policy(client.get(path))
    assert policy["script-src"] == ["'self'", "'unsafe-hashes'", PRINT_HASH] and policy["style-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    values = [value for values in policy.values() for value in values]
    assert "'unsafe-inline'" not in values and "'unsafe-eval'" not in values


def test_the_one_hash_allowed_is_the_print_buttons_handler():
    digest = base64.b64encode(hashlib.sha256(b"window.print()").digest()).decode()
    assert f"'sha256-{digest}'" == PRINT_HASH


def test_organiser_and_public_pages_send_the_policy_too():
    boss = organiser(username="boss")
    event = TournamentFactory()
    event.organisers.add(boss)
    client = english_client()
    client.force_login(boss)
    for url in (reverse("registration:pairs", args=[event.pk]), f"/t/{event.pk}/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert _policy(response)["script-src"][0] == "'self'"


def test_only_the_api_documentation_page_widens_it_and_only_to_inline_styles(client):
    """Swagger UI is served from this site (sidecar: no CDN, works offline); it styles itself inline."""
    policy = _policy(client.get(reverse("api:docs")))
    assert policy["script-src"][0] == "'self'" and "'unsafe-inline'" not in policy["script-src"]
    assert not any(source.startswith("https:") for sources in policy.values() for source in sources)
    assert "'unsafe-inline'" in policy["style-src"]


INLINE = [
    re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.I),  # a script without src
    re.compile(r"<style\b", re.I),
    re.compile(r"\sstyle=", re.I),
    re.compile(r"\son[a-z]+=(?!\"window\.print\(\)\")", re.I),  # onclick= … (but the print handler, allowed by hash)
    re.compile(r"\shx-on", re.I),  # htmx evaluates these with new Function (unsafe-eval)
    re.compile(r"javascript:", re.I),
]


@pytest.mark.parametrize("template", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_no_template_writes_inline_script_or_style(template):
    text = template.read_text(encoding="utf-8")
    found = [pattern.pattern for pattern in INLINE if pattern.search(text)]
    assert not found, f"{template.name}: {found}"
