"""Server response time of the main pages, as a signed-in person sees them: N requests
each (default 20), p50 and p95 in milliseconds, time to the full response body.

    ./dev run                                  # the demo server, in another terminal
    .venv/bin/python bench/perf/page_latency.py     # or --base http://127.0.0.1:8765 -n 20

Signs in as the demo admin (sees every page). Only 127.0.0.1 / localhost targets; the
loop is bounded by -n.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import re
import statistics
import sys
import time
import urllib.parse
import urllib.request


def opener_signed_in(base: str, username: str, password: str):
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"{base}/accounts/login/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    data = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "username": username, "password": password}
    ).encode()
    request = urllib.request.Request(
        f"{base}/accounts/login/", data=data, headers={"Referer": f"{base}/accounts/login/"}
    )
    landed = opener.open(request)
    if "/accounts/login" in landed.geturl():
        raise SystemExit("sign-in failed: is the demo tenant seeded (./dev run)?")
    return opener


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--base", default="http://" + os.environ.get("ENGRAM_BIND", "127.0.0.1:8000")
    )
    parser.add_argument("-n", type=int, default=20)
    args = parser.parse_args()
    base = args.base.rstrip("/")
    if urllib.parse.urlparse(base).hostname not in ("127.0.0.1", "localhost"):
        raise SystemExit("only a local server is measured (127.0.0.1)")
    n = max(1, min(args.n, 200))
    opener = opener_signed_in(base, "demo", "engram-demo")
    listing = opener.open(f"{base}/?q=Hangzhou").read().decode()
    detail = re.search(r'href="(/memories/[0-9a-f-]{36})"', listing).group(1)
    changes = opener.open(f"{base}/console/changes/").read().decode()
    change = re.search(r'href="(/console/changes/[0-9a-f-]{36}/)"', changes)
    pages = {
        "My memories (/)": "/",
        "Search (/?q=杭州)": "/?q=" + urllib.parse.quote("杭州"),
        "Memory detail": detail,
        "Memory settings": "/settings/memory",
        "Console home (charts)": "/console/",
        "Change request (diff)": change.group(1) if change else "/console/changes/",
        "Audit log": "/console/audit/",
        "Agents & keys": "/console/admin/agents",
        "Operations (/ops/)": "/ops/",
    }
    print(f"{n} requests per page against {base} (sequential, after one warm-up request)\n")
    print("| page | p50 ms | p95 ms |\n|---|---:|---:|")
    for name, path in pages.items():
        opener.open(f"{base}{path}").read()  # warm-up
        times = []
        for _ in range(n):
            start = time.perf_counter()
            response = opener.open(f"{base}{path}")
            response.read()
            times.append((time.perf_counter() - start) * 1000)
            if response.status != 200:
                raise SystemExit(f"{path}: HTTP {response.status}")
        print(f"| {name} | {statistics.median(times):.0f} | {percentile(times, 0.95):.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
