"""Tries, from a page of another origin in Debian's Chromium (driven by playwright), to read a title, delete it,
rename it and upload a file to a vod server, as a page a developer happens to visit could, and prints what the page
saw as JSON. The page is PAGE_URL, an address of another origin on loopback like the server (Chromium refuses a
page of a public origin any access to loopback, which other browsers do not), so that nothing but CORS and the
server stand in the way.

Usage: cross_origin.py SERVER_URL MEDIA_ID PAGE_URL
"""
import asyncio
import json
import os
import sys

from playwright.async_api import async_playwright

CHROMIUM = os.environ.get("VOD_CHROMIUM", "/usr/lib/chromium/chromium")

ATTEMPTS = """async ([server, id]) => {
  const outcome = async (request) => {
    try { const response = await request(); return response.type === 'opaque' ? 'opaque' : String(response.status); }
    catch (error) { return `blocked: ${error.name}`; }
  };
  const form = new FormData();
  form.append('file', new Blob(['not a video'], {type: 'video/mp4'}), 'clip.mp4');
  form.append('title', 'planted');
  return {
    read: await outcome(() => fetch(`${server}/api/media/${id}`)),
    rename: await outcome(() => fetch(`${server}/api/media/${id}`, {method: 'PATCH',
      headers: {'Content-Type': 'application/json'}, body: JSON.stringify({title: 'defaced'})})),
    upload: await outcome(() => fetch(`${server}/api/media`, {method: 'POST', mode: 'no-cors', body: form})),
    remove: await outcome(() => fetch(`${server}/api/media/${id}`, {method: 'DELETE'})),
  };
}"""


async def attempt(server, media_id, page_url):
    async with async_playwright() as playwright:
        # The server listens on 127.0.0.1 only, where Chromium would try ::1 for localhost first.
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--host-resolver-rules=MAP localhost 127.0.0.1"])
        try:
            page = await browser.new_page()
            await page.goto(page_url)
            return await page.evaluate(ATTEMPTS, [server, media_id])
        finally:
            await browser.close()


if __name__ == "__main__":
    print(json.dumps(asyncio.run(attempt(sys.argv[1], sys.argv[2], sys.argv[3]))))
