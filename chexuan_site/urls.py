"""Root URLs: health check and the tutorial app (which has the language switch)."""

from django.urls import include, path

from tutorial.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("", include("tutorial.urls")),
]
