"""The app's icons for the web app manifest, 192 and 512 px PNG, drawn from img/favicon.svg.

Run `python tools/icons.py` after changing the favicon (it needs Playwright and Debian's
chromium, as the browser tests do); tests/server/test_app_install.py checks that the icons are
the size the manifest says.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "src" / "mines" / "server" / "static" / "img"
SIZES = (192, 512)
CHROMIUM = "/usr/bin/chromium"


def main() -> int:
    svg = (IMAGES / "favicon.svg").read_text(encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless"])
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            # The 16-pixel drawing scaled up with its crisp edges: pixel art, as the favicon is.
            page.set_content(
                "<style>html,body{margin:0}svg{display:block;width:100vw;height:100vh;"
                f"shape-rendering:crispEdges}}</style>{svg}"
            )
            path = IMAGES / f"icon-{size}.png"
            page.screenshot(path=str(path), omit_background=False)
            print(f"wrote {path.relative_to(ROOT)}")
            page.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
