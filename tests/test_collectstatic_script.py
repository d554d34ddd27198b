"""scripts/collectstatic.py: collectstatic runs only when a static source changed, so a
second server starting from the same checkout leaves the files of a booting one alone."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.test import override_settings

from scripts import collectstatic

MANIFEST = {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}


def test_collects_once_then_only_after_a_source_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from django.conf import settings

    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "extra.js").write_text("let a = 1;\n")
    root = tmp_path / "root"
    monkeypatch.setattr(collectstatic, "STAMP", tmp_path / "stamp")
    storages = {**settings.STORAGES, "staticfiles": MANIFEST}
    with override_settings(
        STORAGES=storages, STATIC_ROOT=root, STATICFILES_DIRS=[*settings.STATICFILES_DIRS, sources]
    ):
        assert collectstatic.main([]) == 0
        assert capsys.readouterr().out == "collectstatic: collected\n"
        hashed = next(root.glob("extra.*.js"))
        manifest = root / "staticfiles.json"
        before = os.stat(hashed).st_mtime_ns, os.stat(manifest).st_mtime_ns

        assert collectstatic.main([]) == 0
        assert capsys.readouterr().out == "collectstatic: up to date\n"
        assert (os.stat(hashed).st_mtime_ns, os.stat(manifest).st_mtime_ns) == before

        (sources / "extra.js").write_text("let a = 2;\n")
        assert collectstatic.main([]) == 0
        assert capsys.readouterr().out == "collectstatic: collected\n"
        assert len(list(root.glob("extra.*.js"))) == 2  # the new version beside the old

        manifest.unlink()  # a lost manifest is collected again
        assert collectstatic.main([]) == 0
        assert capsys.readouterr().out == "collectstatic: collected\n"
