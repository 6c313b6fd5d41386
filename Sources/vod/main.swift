print("vod")
