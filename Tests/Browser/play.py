"""Plays an HLS stream in Debian's Chromium with its native HLS support, driven by playwright, until its playhead
reaches SECONDS, and prints what a viewer would see as JSON: how far it played, the picture size, and any media
error.

Usage: play.py URL SECONDS
"""
import asyncio
import json
import os
import sys

from playwright.async_api import async_playwright

CHROMIUM = os.environ.get("VOD_CHROMIUM", "/usr/lib/chromium/chromium")

MEASURE = """(() => {
  const media = document.getElementById('player');
  return {
    canPlayHLS: media.canPlayType('application/vnd.apple.mpegurl'),
    currentTime: media.currentTime,
    duration: Number.isFinite(media.duration) ? media.duration : null,
    videoWidth: media.videoWidth,
    videoHeight: media.videoHeight,
    readyState: media.readyState,
    error: media.error ? `${media.error.code}: ${media.error.message}` : null,
  };
})()"""


async def play(url, seconds):
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--autoplay-policy=no-user-gesture-required"])
        try:
            page = await browser.new_page()
            await page.set_content(f'<video id="player" src="{url}" muted autoplay playsinline></video>')
            # Until the playhead reaches `seconds`, or the element gives up; a stall times out.
            await page.wait_for_function(
                f"document.getElementById('player').currentTime >= {seconds} || document.getElementById('player').error",
                timeout=30_000 + seconds * 3_000)
            return await page.evaluate(MEASURE)
        finally:
            await browser.close()


if __name__ == "__main__":
    print(json.dumps(asyncio.run(play(sys.argv[1], float(sys.argv[2])))))
