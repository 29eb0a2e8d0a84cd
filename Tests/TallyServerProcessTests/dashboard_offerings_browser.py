#!/usr/bin/env python3
"""Drives the dashboard's Offerings page of a running `tally serve` (seeded from the Market's offerings.json) in
headless Chromium (Selenium; tooling only): it lists offerings, placements and the experiment split as the API
has them, saves an edit with a secret key, shows a refused save's reason, and rolls back.

Usage: dashboard_offerings_browser.py BASE_URL DASHBOARD_KEY SECRET_KEY SCREENSHOT_DIR
Exits 0 when every check passes; prints each failure and exits 1 otherwise.
"""
import json
import sys
import urllib.request

from selenium.webdriver.common.by import By

from browser_session import BrowserSession

base, key, secret, shots = sys.argv[1:5]
XSS = "<img src=x onerror=alert(1)>"


def api(method, path, body=None, auth=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Authorization": "Bearer " + (auth or key),
                                              "Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


session = BrowserSession(shots, height=1600)
driver, wait, check, console_errors, ready, shot = (session.driver, session.wait, session.check, session.console_errors,
                                                    session.ready, session.shot)


def tables():
    """Each table by its aria-label: its rows as lists of cell texts."""
    result = {}
    for element in driver.find_elements(By.CSS_SELECTOR, "table[aria-label]"):
        rows = element.find_elements(By.CSS_SELECTOR, "tbody tr")
        result[element.get_attribute("aria-label")] = [[c.text for c in r.find_elements(By.TAG_NAME, "td")] for r in rows]
    return result


def text_of(element_id):
    """An element's text read in the page (never stale while the page re-renders); "" when absent."""
    return driver.execute_script("const e = document.getElementById(arguments[0]); return e ? e.textContent : ''",
                                 element_id)


def set_editor(document):
    driver.execute_script("document.getElementById('offerings-json').value = arguments[0]", json.dumps(document, indent=2))


try:
    # An offering description that is markup: the page must show it as text.
    status, live = api("GET", "/v1/offerings/document")
    check(status == 200 and live["version"] == 1, "seeded version 1: %r" % status)
    document = live["document"]
    document["offerings"][1]["description"] = XSS
    status, saved = api("PUT", "/v1/offerings", document, auth=secret, headers={"If-Match": '"1"'})
    check(status == 200 and saved["version"] == 2, "PUT through the API: %r %r" % (status, saved))

    driver.get(base + "/dashboard/")
    wait.until(lambda d: d.find_element(By.ID, "login").is_displayed())
    driver.find_element(By.ID, "key").send_keys(key)
    driver.find_element(By.CSS_SELECTOR, "#login button").click()
    wait.until(lambda d: d.find_element(By.ID, "nav").is_displayed())
    driver.get(base + "/dashboard/#offerings")
    ready()
    wait.until(lambda d: d.find_elements(By.ID, "offerings-version"))
    check(text_of("offerings-version") == "version 2", "the live version")
    t = tables()
    check([r[0] for r in t["Offerings"]] == ["default", "intro"], "offerings listed: %r" % t.get("Offerings"))
    check(t["Offerings"][0][3] == "current", "default marked current")
    check(t["Offerings"][1][1] == XSS, "markup shown as text: %r" % t["Offerings"][1][1])
    check(driver.find_elements(By.CSS_SELECTOR, "img[src=x]") == [], "no markup made it into the page")
    check("monthly → market.pro.monthly" in t["Offerings"][0][2], "packages with their products")
    chosen = driver.execute_script(
        "return [...document.querySelectorAll('select.placement-offering')].map(s => [s.dataset.placement, s.value])")
    check(chosen == [["onboarding", "intro"], ["settings", "default"]], "placements: %r" % chosen)
    arms = driver.find_element(By.CSS_SELECTOR, ".arms").text
    check(arms == "a: 50% → intro · b: 50% → default", "the experiment split: %r" % arms)
    widths = driver.execute_script(
        "return [...document.querySelectorAll('.split .arm')].map(a => a.getBoundingClientRect().width)")
    check(len(widths) == 2 and abs(widths[0] - widths[1]) < 2, "the split bar's arms are half and half: %r" % widths)
    shot("offerings")
    check(console_errors() == [], "console errors on the offerings page: %r" % console_errors())

    # Saving without a secret key: refused in the page, nothing sent.
    driver.find_element(By.ID, "offerings-save").click()
    wait.until(lambda d: "secret key" in text_of("offerings-status"))

    # An edit saved with the secret key: a 30/70 split set with the shares' fields, the settings placement moved to
    # intro with its menu, and intro as current in the JSON.
    document["current"] = "intro"
    set_editor(document)
    for arm, share in [("a", "30"), ("b", "70")]:
        field = driver.find_element(By.CSS_SELECTOR, "input.arm-percent[data-arm='%s']" % arm)
        field.clear()
        field.send_keys(share)
        driver.execute_script("arguments[0].dispatchEvent(new Event('change'))", field)
    menu = driver.find_element(By.CSS_SELECTOR, "select.placement-offering[data-placement='settings']")
    menu.find_element(By.CSS_SELECTOR, "option[value='intro']").click()
    check("Edited; not saved yet" in text_of("offerings-status"), "the controls say the edit is not saved yet")
    edited = json.loads(driver.execute_script("return document.getElementById('offerings-json').value"))
    check([a["percent"] for a in edited["targeting"][0]["experiment"]["arms"]] == [30, 70], "the shares in the JSON")
    check(edited["placements"]["settings"] == "intro" and edited["current"] == "intro", "the placement in the JSON")
    document = edited
    driver.find_element(By.ID, "secret-key").send_keys(secret)
    driver.find_element(By.ID, "offerings-save").click()
    wait.until(lambda d: text_of("offerings-version") == "version 3")
    ready()
    check("Saved version 3" in text_of("offerings-status"), "the save is confirmed")
    check(driver.find_element(By.CSS_SELECTOR, ".arms").text == "a: 30% → intro · b: 70% → default", "the new split")
    status, answer = api("GET", "/v1/offerings", auth=None)
    check(answer["current"] == "intro" and answer["version"] == 3, "the API serves the page's edit: %r" % answer.get("current"))
    status, settings = api("GET", "/v1/offerings?placement=settings")
    check(settings["current"] == "intro", "the settings placement moved: %r" % settings.get("current"))
    check(driver.execute_script("return Object.keys(sessionStorage).concat(Object.keys(localStorage)).join()")
          == "tally.dashboardKey", "the secret key is kept in no storage")
    shot("offerings-saved")

    # A save that another editor beat: the page shows the 412's reason and the page's version stays.
    status, _ = api("PUT", "/v1/offerings", document, auth=secret, headers={"If-Match": '"3"'})
    check(status == 200, "a save behind the page's back")
    document["offerings"][0]["description"] = "stale edit"
    set_editor(document)
    driver.find_element(By.ID, "offerings-save").click()
    wait.until(lambda d: "version_conflict" in text_of("offerings-status"))
    check("version is 4" in text_of("offerings-status"), "the conflict names the live version")
    shot("offerings-conflict")

    # A product the catalog lacks: 422 naming it, shown in the page.
    driver.get(base + "/dashboard/#catalog")
    ready()
    driver.get(base + "/dashboard/#offerings")
    ready()
    wait.until(lambda d: text_of("offerings-version") == "version 4")
    document["offerings"][0]["packages"].append({"id": "gold", "productId": "market.gold"})
    set_editor(document)
    check(driver.find_element(By.ID, "secret-key").get_attribute("value") == secret,
          "the secret key stays in the page's memory between views")
    driver.find_element(By.ID, "offerings-save").click()
    wait.until(lambda d: "invalid_offerings" in text_of("offerings-status"))
    check("market.gold is not in Market.storekit" in text_of("offerings-status"),
          "the refusal names the product")

    # Roll back to version 1 from the history.
    driver.find_element(By.CSS_SELECTOR, "button.rollback[data-version='1']").click()
    wait.until(lambda d: text_of("offerings-version") == "version 5")
    ready()
    rows = tables()["History"]
    check([r[0] for r in rows] == ["5", "4", "3", "2", "1"], "history newest first: %r" % rows)
    check(rows[0][2] == "rollback of 1" and rows[0][3] == "live", "the rollback row: %r" % rows[0])
    check(driver.find_element(By.CSS_SELECTOR, ".arms").text == "a: 50% → intro · b: 50% → default", "version 1's split")
    shot("offerings-rollback")
    check(console_errors(allowed=("412", "422")) == [], "console errors: %r" % console_errors(allowed=("412", "422")))
finally:
    session.finish("all offerings page checks passed")
