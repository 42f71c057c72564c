from django.urls import path

from tournament.matches import card_views

app_name = "matches"

urlpatterns = [
    path("referee/cards/", card_views.card_dispute, name="card_dispute"),
]
