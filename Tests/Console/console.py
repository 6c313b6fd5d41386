"""Drives the web console of two running `vod serve` processes in Debian's Chromium, headless, as a person would,
in one browser session, and prints what it saw as JSON for `Tests/VODServerTests/Console/ConsoleTests.swift` to
judge. It asserts nothing itself: each phase records what the page showed, and a phase that fails records why
and lets the next one run.

Usage: console.py CONFIG_JSON, with `open_url` (a server without write protection, with workers), `key_url` (a
server with `--api-key-file`, `--playback-key-file` and `--player-script-url http://player.test/hls.js`), `key` (its key), `clip` (a
small video) and `tracks` (a small video with two audio tracks, eng and fra).
"""
import asyncio
import json
import sys
import traceback

from axe_playwright_python.async_playwright import Axe
from playwright.async_api import async_playwright

from device_phases import DevicePhases
from key_server_phases import KeyServerPhases
from library_phases import LibraryPhases
from network_phases import NetworkPhases
from page_scripts import ARGUMENTS, CHROMIUM, REPORT_VIOLATIONS, TIMEOUT
from player_phases import PlayerPhases


class Session(LibraryPhases, PlayerPhases, DevicePhases, NetworkPhases, KeyServerPhases):
    def __init__(self, config):
        self.config = config
        self.report = {"errors": [], "csp_violations": [], "console_errors": [], "page_errors": [], "headers": {}}

    async def phase(self, name, body):
        try:
            await body()
        except Exception as error:  # noqa: BLE001 — the report carries every failure to the Swift test
            self.report["errors"].append(f"{name}: {error!r}\n{traceback.format_exc(limit=3)}")

    async def context(self, browser, **options):
        context = await browser.new_context(**options)
        await context.expose_function("vodReportViolation", lambda v: self.report["csp_violations"].append(
            f"{v['directive']} blocked {v['blocked']} at {v['source']}:{v['line']}"))
        await context.add_init_script(REPORT_VIOLATIONS)
        context.on("console", lambda message: message.type == "error" and self.report["console_errors"].append(message.text))
        context.on("weberror", lambda error: self.report["page_errors"].append(str(error.error)))
        return context

    def headers(self, name, response):
        self.report["headers"][name] = {
            "status": response.status,
            "content_type": response.headers.get("content-type"),
            "csp": response.headers.get("content-security-policy"),
            "nosniff": response.headers.get("x-content-type-options"),
            "cache_control": response.headers.get("cache-control"),
            "etag": response.headers.get("etag"),
        }

    async def axe(self, page, name):
        results = await Axe().run(page)
        self.report.setdefault("axe", {})[name] = [
            {"id": v["id"], "impact": v["impact"] or "", "nodes": [json.dumps(n["target"]) for n in v["nodes"]]}
            for v in results.response["violations"]]

    async def run(self):
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGUMENTS)
            try:
                await self.open_server(browser)
                await self.key_server(browser)
            finally:
                await browser.close()
        return self.report

    # The server without write protection: upload, watch, play, switch audio, delete, accessibility, phone width.
    async def open_server(self, browser):
        url = self.config["open_url"]
        context = await self.context(browser, viewport={"width": 1280, "height": 800})
        await context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
        page = await context.new_page()
        page.set_default_timeout(TIMEOUT)
        await self.library_phases(url, context, page)
        await self.player_phases(url, page)
        await self.device_phases(browser, url)
        await self.network_phases(url, context, page)
        await context.close()


if __name__ == "__main__":
    print(json.dumps(asyncio.run(Session(json.loads(sys.argv[1])).run())))
