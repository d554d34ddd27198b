"""The browser fixtures themselves (tests/conftest.py): a page that asks another host for
anything fails its test, and the request never leaves the machine."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import DESKTOP, _new_page

pytestmark = pytest.mark.browser


def test_a_request_to_another_host_fails_the_test(chromium_browser: Any) -> None:
    pages = _new_page(chromium_browser, DESKTOP, allow_4xx=False)
    page = next(pages)
    page.set_content('<img src="http://example.com/x.png" alt="">')
    assert page.evaluate("document.images[0].complete && !document.images[0].naturalWidth")
    with pytest.raises(pytest.fail.Exception) as failed:
        next(pages, None)
    assert "third-party request: http://example.com/x.png" in str(failed.value)
    assert "request failed (net::ERR_NAME_NOT_RESOLVED)" in str(failed.value)
