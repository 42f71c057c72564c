from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from tournament.api import card_views

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("cards/classify/", card_views.CardClassifyView.as_view(), name="cards_classify"),
    path("cards/beats/", card_views.CardBeatsView.as_view(), name="cards_beats"),
]
