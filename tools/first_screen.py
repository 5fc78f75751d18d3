#!/usr/bin/python3
"""README's picture of the explorer's first screen (results/img/first-screen.png):
the static page (the `web` target's folder) in headless Chromium at 1280x900,
light scheme, as a new visitor meets it (nothing remembered, nothing clicked).

Run:  /usr/bin/python3 tools/first_screen.py build/web results/img/first-screen.png
"""
import functools
import http.server
import os
import sys
import tempfile
import threading

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait


def main(web_dir, out):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=web_dir)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
              "--window-size=1280,900", "--user-data-dir=" + tempfile.mkdtemp(prefix="fano-chromium-")):
        opts.add_argument(a)
    drv = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    try:
        # the viewport itself 1280x900 (the window's size counts its frame)
        drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        drv.execute_cdp_cmd("Emulation.setEmulatedMedia",
                            {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
        drv.get("http://127.0.0.1:%d/index.html" % server.server_address[1])
        WebDriverWait(drv, 60).until(
            lambda d: d.execute_script("return document.body.getAttribute('data-ready') === '1' &&"
                                       " !document.body.hasAttribute('data-thinking');"))
        drv.execute_script("localStorage.clear(); window.scrollTo(0, 0);")
        if not drv.save_screenshot(out):
            sys.exit("no screenshot written to " + out)
    finally:
        drv.quit()
        server.shutdown()


if __name__ == "__main__":
    if len(sys.argv) != 3 or not os.path.isfile(os.path.join(sys.argv[1], "index.html")):
        sys.exit("usage: tools/first_screen.py WEB_DIR OUT.png (WEB_DIR: the `web` target's folder)")
    main(sys.argv[1], sys.argv[2])
