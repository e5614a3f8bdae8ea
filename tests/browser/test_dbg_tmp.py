def test_dbg(page, artifacts):
    page.on("console", lambda m: print("console", m.text))
    page.goto("/lesson?lang=en#dfs/3")
    page.wait_for_selector("#lesson[data-ready=true]")
    page.wait_for_timeout(7000)
    page.screenshot(path=str(artifacts / "dbg.png"), full_page=True)
