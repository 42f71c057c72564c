from csp.decorators import csp_update
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from tournament.api import auth_views, card_views, match_views

app_name = "api"

# Swagger UI is served from this site (drf-spectacular-sidecar: the docs work without internet) and
# its script by the view itself, not inline (the "split" view); it styles itself inline, so its page
# alone allows inline styles.
docs_view = csp_update({"style-src": ["'unsafe-inline'"]})(SpectacularSwaggerSplitView.as_view(url_name="api:schema"))

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", docs_view, name="docs"),
    path("public/", include("tournament.api.public_urls")),  # read-only, anonymous
    path("cards/classify/", card_views.CardClassifyView.as_view(), name="cards_classify"),
    path("cards/beats/", card_views.CardBeatsView.as_view(), name="cards_beats"),
    # referee devices: a token for the device, then the same operations as the pages
    path("auth/token/", auth_views.token_view, name="token"),
    path("referee/tables/", match_views.MyTablesView.as_view(), name="my_tables"),
    path("matches/<int:match_id>/", match_views.MatchDetailView.as_view(), name="match"),
    path("matches/<int:match_id>/start/", match_views.MatchStartView.as_view(), name="match_start"),
    path("matches/<int:match_id>/deals/", match_views.DealListView.as_view(), name="deals"),
    path("matches/<int:match_id>/deals/preview/", match_views.DealPreviewView.as_view(), name="deal_preview"),
    path("matches/<int:match_id>/deals/<int:number>/", match_views.DealDetailView.as_view(), name="deal"),
    path("matches/<int:match_id>/undo/", match_views.DealUndoView.as_view(), name="undo"),
    path("matches/<int:match_id>/sign-off/", match_views.SignOffView.as_view(), name="sign_off"),
    path("matches/<int:match_id>/unlock/", match_views.UnlockView.as_view(), name="unlock"),
    path("matches/<int:match_id>/clear/", match_views.MatchClearView.as_view(), name="clear"),
    path("matches/<int:match_id>/adjustments/", match_views.AdjustmentListView.as_view(), name="adjustments"),
    path("rounds/<int:round_id>/start/", match_views.RoundStartView.as_view(), name="round_start"),
]
