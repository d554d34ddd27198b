"""Production static files: ``collectstatic`` with WhiteNoise's compressed manifest storage,
then hashed names are served compressed with a far-future immutable Cache-Control."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client, override_settings

FAR_FUTURE = "max-age=315360000, public, immutable"
MANIFEST = {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}


@pytest.mark.django_db
def test_hashed_static_files_are_compressed_and_cached_forever(tmp_path: Path) -> None:
    from django.conf import settings

    storages = {**settings.STORAGES, "staticfiles": MANIFEST}
    with override_settings(
        STORAGES=storages,
        STATIC_ROOT=tmp_path,
        WHITENOISE_USE_FINDERS=False,
        WHITENOISE_AUTOREFRESH=False,
    ):
        call_command("collectstatic", "--noinput", verbosity=0)
        client = Client()  # a new handler: WhiteNoise scans the fresh STATIC_ROOT
        html = client.get("/").content.decode()
        urls = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
        assert static("css/site.css") in urls
        assert len(urls) >= 3, urls  # icon, site.css, htmx, site.js
        for url in urls:
            assert re.search(r"\.[0-9a-f]{12}\.\w+$", url), f"not a hashed name: {url}"
            response = client.get(url, HTTP_ACCEPT_ENCODING="gzip, br")
            assert response.status_code == 200, url
            assert response["Cache-Control"] == FAR_FUTURE, url
            if url.endswith((".css", ".js", ".svg")):
                assert response["Content-Encoding"] in {"gzip", "br"}, url
                assert response["Vary"] == "Accept-Encoding"
        # The unhashed name is still served, but only briefly cached.
        plain = client.get("/static/css/site.css")
        assert plain.status_code == 200
        assert "immutable" not in plain["Cache-Control"]


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/pairs/", "/rules/", "/squeeze/", "/table/"])
def test_pages_are_sent_gzip_compressed(url: str) -> None:
    plain = Client().get(url)
    assert "Content-Encoding" not in plain  # a client that does not ask gets plain HTML
    sent = Client().get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert sent["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in sent["Vary"]
    assert len(sent.content) < len(plain.content) / 2
    page = gzip.decompress(sent.content).decode()
    # the same page (a CSRF token, where there is one, is masked anew for each response)
    masked = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')
    assert masked.sub("", page) == masked.sub("", plain.content.decode())
