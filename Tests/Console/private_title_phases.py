"""A private title on the server with an API key: uploaded private, listed only with the key, played with a playback
token the console mints, and made public again from the edit form."""
import asyncio

from page_scripts import PLAY, TIMEOUT, VIDEO_STATE, wait_until

# The private card of the library: what it says of its visibility, and whether it shows a poster.
PRIVATE_CARD = """(title) => { const card = [...document.querySelectorAll('.card')]
  .find((element) => element.querySelector('.card-title a').textContent === title);
  return card && { visibility: card.querySelector('.visibility').textContent, poster: !card.querySelector('.poster img').hidden,
    href: card.querySelector('.card-title a').getAttribute('href') }; }"""


class PrivateTitlePhases:
    async def private_title(self, page, url, key):
        state = {}
        self.report["private_title"] = state

        async def titles(headers):
            return [item["title"] for item in await (await page.request.get(f"{url}/api/media", headers=headers)).json()]

        async def upload_and_list():
            await page.goto(f"{url}/#/")
            await page.reload()
            await page.wait_for_selector("#library-list", state="attached")
            await page.select_option("#upload-visibility", "private")
            await page.fill("#upload-title", "hidden")
            await page.set_input_files("#upload-files", self.config["clip"])
            await wait_until(page, "[...document.querySelectorAll('.upload-open')].some((a) => a.textContent === 'Open hidden' && !a.hidden)")
            state["anonymous_titles"] = await titles({})
            state["keyed_titles"] = await titles({"X-API-Key": key})
            await page.reload()
            await wait_until(page, f"({PRIVATE_CARD})('hidden') != null")
            state["card"] = await page.evaluate(PRIVATE_CARD, "hidden")
        await self.phase("private upload", upload_and_list)

        async def play():
            media_id = int(state["card"]["href"].rsplit("/", 1)[-1])
            deadline = asyncio.get_running_loop().time() + TIMEOUT / 1000
            while (await (await page.request.get(f"{url}/api/media/{media_id}", headers={"X-API-Key": key})).json())["status"] != "ready":
                if asyncio.get_running_loop().time() > deadline:
                    raise TimeoutError("the private title did not become ready")
                await asyncio.sleep(0.2)
            state["without_token"] = (await page.request.get(f"{url}/api/media/{media_id}/stream")).status
            await page.click(f"a[href='#/media/{media_id}']")
            await wait_until(page, f"window.vodPlayerScript?.source?.includes('/api/media/{media_id}/stream?token=') === true")
            await page.evaluate(PLAY)
            await wait_until(page, "document.getElementById('video').currentTime >= 1")
            state["media_id"] = media_id
            state["source"] = await page.evaluate("window.vodPlayerScript.source")
            state["stream_url"] = await page.input_value("#stream-url")
            state["edit_visibility"] = await page.input_value("#edit-visibility")
            state["playback"] = await page.evaluate(VIDEO_STATE)
        await self.phase("private playback", play)

        async def publish():
            await page.select_option("#edit-visibility", "public")
            await page.click("#edit-form button[type=submit]")
            await wait_until(page, "document.querySelector('.visibility').textContent === ''")
            state["published_titles"] = await titles({})
        await self.phase("publish", publish)
