"""Every page of the built book: offline, math rendered, every widget rendered, no console errors."""

from __future__ import annotations

import pytest

from .conftest import built_pages, widget_view_count


@pytest.mark.parametrize("rel", built_pages())
def test_page_is_offline_and_renders(open_page, rel):
    page, log = open_page(rel)

    assert log.external_requests == [], f"{rel} tried to reach the network: {log.external_requests[:5]}"
    assert log.page_errors == [], f"uncaught errors on {rel}: {log.page_errors}"
    assert log.console_errors == [], f"console errors on {rel}: {log.console_errors}"
    assert log.dialogs == [], f"{rel} opened a dialog (script injection?): {log.dialogs}"

    # Math: every math node on the page was typeset by the local MathJax.
    n_math = page.locator("div.math, span.math").count()
    if n_math:
        assert page.locator("mjx-container").count() >= n_math
        assert page.locator("mjx-merror").count() == 0, "MathJax reported a TeX error"

    # Widgets: one rendered, visible view for every widget the page embeds.
    n_views = widget_view_count(page)
    rendered = page.locator(".widget-subarea").count()
    assert rendered == n_views, f"{rel}: {n_views} widget views embedded, {rendered} rendered"
