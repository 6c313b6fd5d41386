"""A title's page on the server without write protection: play, change quality, rename, switch audio, delete."""
from page_scripts import PLAY, VIDEO_STATE, wait_until


class PlayerPhases:
    async def player_phases(self, url, page):
        async def play():
            await page.get_by_role("link", name="clip", exact=True).click()
            await wait_until(page, "document.getElementById('video').currentSrc !== ''")
            await page.evaluate(PLAY)
            await wait_until(page, "document.getElementById('video').currentTime >= 3 || document.getElementById('video').error")
            playback = {"video": await page.evaluate(VIDEO_STATE)}
            playback["quality"] = await page.eval_on_selector_all("#quality option", "options => options.map(o => o.textContent)")
            await self.axe(page, "player")
            media = await (await page.request.get(f"{url}/api/media/{page.url.rsplit('/', 1)[1]}")).json()
            smallest = min(media["variants"], key=lambda variant: variant["width"])
            await page.select_option("#quality", index=media["variants"].index(smallest) + 1)
            await wait_until(page, "([url, width]) => { const v = document.getElementById('video'); "
                                         "return v.currentSrc === url && v.videoWidth === width; }", arg=[smallest["playlist_url"], smallest["width"]])
            playback["after_quality"] = await page.evaluate(VIDEO_STATE)
            playback["variant"] = smallest
            playback["stream_url"] = media["stream_url"]
            await page.click("text=Copy URL")
            playback["copied"] = await page.evaluate("navigator.clipboard.readText()")
            playback["embed"] = await page.input_value("#embed-code")
            await page.fill("#edit-title", "clip, renamed")
            await page.click("#edit-form button[type=submit]")
            await wait_until(page, "document.getElementById('player-heading')?.textContent === 'clip, renamed'")
            playback["renamed"] = (await (await page.request.get(f"{url}/api/media/{media['id']}")).json())["title"]
            self.report["playback"] = playback
        await self.phase("play", play)

        async def audio():
            await page.goto(f"{url}/#/")
            await page.get_by_role("link", name="tracks", exact=True).click()
            await wait_until(page, "document.getElementById('video').currentSrc !== ''")
            await page.evaluate(PLAY)
            await wait_until(page, "document.getElementById('video').currentTime >= 1 && !document.getElementById('audio-field').hidden")
            state = {"options": await page.eval_on_selector_all("#audio-track option", "options => options.map(o => o.textContent)")}
            state["before"] = await page.evaluate("Array.from(document.getElementById('video').audioTracks, t => t.enabled)")
            switched_at = await page.evaluate("document.getElementById('video').currentTime")
            await page.select_option("#audio-track", index=1)
            await wait_until(page, "(t) => { const v = document.getElementById('video'); "
                                         "return v.audioTracks[1].enabled && v.currentTime > t + 0.5; }", arg=switched_at)
            state["after"] = await page.evaluate("Array.from(document.getElementById('video').audioTracks, t => t.enabled)")
            state["selected"] = await page.eval_on_selector("#audio-track", "select => select.selectedOptions[0].textContent")
            state["playback"] = await page.evaluate(VIDEO_STATE)
            state["quality_offered"] = not await page.evaluate("document.getElementById('quality-field').hidden")
            self.report["audio"] = state
        await self.phase("audio", audio)

        async def delete():
            media_id = page.url.rsplit("/", 1)[1]
            await page.click("#delete-button")
            await page.wait_for_selector("#confirm-dialog[open]")
            await page.click("#confirm-button")
            await wait_until(page, "location.hash === '#/'")
            await wait_until(page, """() => document.querySelectorAll('.card').length > 0 &&
              ![...document.querySelectorAll('.card-title a')].some(a => a.textContent === 'tracks')""")
            self.report["deleted"] = {
                "titles": await page.eval_on_selector_all(".card-title a", "links => links.map(link => link.textContent)"),
                "api_status": (await page.request.get(f"{url}/api/media/{media_id}")).status,
            }
        await self.phase("delete", delete)
