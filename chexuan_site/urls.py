"""Root URLs: language switch, health check, and the tutorial app."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness probe: 200 "ok", touches nothing."""
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", healthz, name="healthz"),
    path("", include("tutorial.urls")),
]
