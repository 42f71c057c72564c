"""The organiser's announcements page and the event's Atom feed of them (docs/rules.md §12)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.syndication.views import Feed
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.errors import UserError, user_error_on_form
from tournament.registration.announcements import (
    announcement_edit,
    announcement_post,
    announcement_withdraw,
    announcements_shown,
)
from tournament.registration.forms import AnnouncementForm
from tournament.registration.models import Announcement, Tournament, TournamentStatus
from tournament.registration.roles import organiser_view

FEED_ITEMS = 50


@organiser_view
def announcement_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Post a notice; every notice of the event, newest first, each editable and withdrawable."""
    form = AnnouncementForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            announcement_post(tournament=tournament, text=form.cleaned_data["text"], user=request.user)
        except UserError as error:
            user_error_on_form(form, error)
        else:
            messages.success(request, _("Announcement posted."))
            return redirect("registration:announcements", tournament_id=tournament.pk)
    rows = Announcement.objects.filter(tournament=tournament).order_by("-posted_at", "-id")
    return render(
        request, "registration/announcements.html", {"tournament": tournament, "form": form, "announcements": rows}
    )


@organiser_view
def announcement_change(request: HttpRequest, tournament: Tournament, announcement_id: int) -> HttpResponse:
    row = get_object_or_404(Announcement.objects.filter(tournament=tournament), pk=announcement_id)
    form = AnnouncementForm(request.POST or None, initial={"text": row.text})
    if request.method == "POST" and form.is_valid():
        try:
            announcement_edit(
                tournament=tournament, announcement_id=row.pk, text=form.cleaned_data["text"], user=request.user
            )
        except UserError as error:
            user_error_on_form(form, error)
        else:
            messages.success(request, _("Announcement changed."))
            return redirect("registration:announcements", tournament_id=tournament.pk)
    return render(
        request, "registration/announcement_edit.html", {"tournament": tournament, "form": form, "announcement": row}
    )


@require_POST
@organiser_view
def announcement_remove(request: HttpRequest, tournament: Tournament, announcement_id: int) -> HttpResponse:
    try:
        announcement_withdraw(tournament=tournament, announcement_id=announcement_id, user=request.user)
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Announcement withdrawn."))
    return redirect("registration:announcements", tournament_id=tournament.pk)


if TYPE_CHECKING:  # the stubs type Feed by its item and object; at run time it takes no arguments
    _AnnouncementFeedBase = Feed[Announcement, Tournament]
else:
    _AnnouncementFeedBase = Feed


class AnnouncementFeed(_AnnouncementFeedBase):
    """The event's announcements as an Atom feed, newest first (drafts are not public: 404)."""

    feed_type = Atom1Feed

    def get_object(self, request: HttpRequest, tournament_id: int) -> Tournament:
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        if tournament.status == TournamentStatus.DRAFT:
            raise Http404
        return tournament

    def title(self, obj: Tournament) -> str:
        return _("%(event)s · Announcements") % {"event": obj.name}

    def link(self, obj: Tournament) -> str:
        return reverse("standings:tournament", args=[obj.pk])

    def subtitle(self, obj: Tournament) -> str:
        return _("Notices from the organisers of %(event)s") % {"event": obj.name}

    def items(self, obj: Tournament) -> list[Announcement]:
        return list(announcements_shown(tournament_id=obj.pk, limit=FEED_ITEMS))

    def item_title(self, item: Announcement) -> str:
        return item.text if len(item.text) <= 60 else f"{item.text[:59]}…"

    def item_description(self, item: Announcement) -> str:
        return item.text

    def item_link(self, item: Announcement) -> str:
        return f"{reverse('standings:tournament', args=[item.tournament_id])}#announcement-{item.pk}"

    def item_guid(self, item: Announcement) -> str:
        return f"announcement-{item.tournament_id}-{item.pk}"

    def item_pubdate(self, item: Announcement) -> datetime:
        return item.posted_at

    def item_updateddate(self, item: Announcement) -> datetime:
        return item.edited_at or item.posted_at


def announcement_feed(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return AnnouncementFeed()(request, tournament_id=tournament_id)
