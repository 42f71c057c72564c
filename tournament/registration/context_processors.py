from typing import Any

from django.http import HttpRequest

from tournament.registration.roles import user_can_create_tournaments, user_is_referee


def roles(request: HttpRequest) -> dict[str, Any]:
    """What the navigation may offer the current user."""
    user = request.user
    return {
        "user_is_organiser": user_can_create_tournaments(user),
        "user_is_referee": user_is_referee(user),
    }
