"""Error pages in the site's style and language: not Django's bare English "Not Found"."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views.defaults import permission_denied, server_error

pytestmark = pytest.mark.django_db


def test_a_missing_page_is_the_sites_404_in_chinese_first(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "页面不存在" in page and 'class="topbar"' in page
    assert reverse("home") in page  # a way back
    assert "Not Found" not in page


def test_the_404_follows_the_english_switch(client):
    client.get(reverse("language_choose", args=["en"]))
    page = client.get("/no-such-page/").content.decode()
    assert "Page not found" in page and "页面不存在" not in page


def test_403_explains_what_to_do(rf: RequestFactory):
    request = rf.get("/")
    request.user = type("Anonymous", (), {"is_authenticated": False})()
    with translation.override("zh-hans"):  # the locale middleware's choice in a real request
        response = permission_denied(request, PermissionDenied())
    assert response.status_code == 403
    assert "无权访问" in response.content.decode()


def test_500_needs_neither_the_database_nor_a_request_context(rf: RequestFactory, django_assert_num_queries):
    with django_assert_num_queries(0), translation.override("zh-hans"):
        response = server_error(rf.get("/"))
    assert response.status_code == 500
    page = response.content.decode()
    assert "出错了" in page and "site.css" in page


def test_pages_carry_a_favicon(client):
    page = client.get(reverse("home")).content.decode()
    assert "favicon.svg" in page


def test_the_api_docs_need_no_internet(client):
    page = client.get(reverse("api:docs")).content.decode()
    assert "cdn." not in page and "jsdelivr" not in page
    assert "drf_spectacular_sidecar" in page or "/static/" in page
