#!/usr/bin/env python3
"""Drives the dashboard's Offers page of a running `tally serve` (seeded with transactions bought with offers) in
headless Chromium (Selenium; tooling only): the totals and the redemptions are the API's, newest first, an offer id
that is markup is shown as text, "Older…" pages on, and the console has no errors.

Usage: dashboard_offers_browser.py BASE_URL DASHBOARD_KEY SCREENSHOT_DIR MARKUP_OFFER_ID
Exits 0 when every check passes; prints each failure and exits 1 otherwise.
"""
import json
import sys
import urllib.request

from selenium.webdriver.common.by import By

from browser_session import BrowserSession

base, key, shots, markup = sys.argv[1:5]
TYPES = {1: "Introductory", 2: "Promotional", 3: "Offer code", 4: "Win-back"}


def api(path):
    request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + key})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


session = BrowserSession(shots, height=1200)
driver, wait, check, console_errors, ready, shot = (session.driver, session.wait, session.check, session.console_errors,
                                                    session.ready, session.shot)


def tables():
    """Each table by its aria-label: its rows as lists of cell texts (textContent, as the page put them)."""
    return driver.execute_script("""
        const result = {};
        for (const t of document.querySelectorAll("table[aria-label]")) {
          result[t.getAttribute("aria-label")] = [...t.querySelectorAll("tbody tr")].map(
            (r) => [...r.querySelectorAll("td")].map((c) => c.textContent));
        }
        return result;""")


try:
    expected = api("/v1/dashboard/offers")
    check(len(expected["redemptions"]) >= 2, "the seed has redemptions: %r" % expected)
    driver.get(base + "/dashboard/")
    wait.until(lambda d: d.find_element(By.ID, "login").is_displayed())
    driver.find_element(By.ID, "key").send_keys(key)
    driver.find_element(By.CSS_SELECTOR, "#login button").click()
    wait.until(lambda d: d.find_element(By.ID, "nav").is_displayed())
    driver.find_element(By.CSS_SELECTOR, "nav a[href='#offers']").click()
    ready()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "table[aria-label='Offer redemptions']"))
    t = tables()
    totals = [[TYPES[x["offerType"]], x["offerIdentifier"] or "(no identifier)", str(x["count"])] for x in expected["totals"]]
    check(t.get("Offer totals") == totals, "the totals: %r, expected %r" % (t.get("Offer totals"), totals))
    rows = t.get("Offer redemptions", [])
    check([r[8] for r in rows] == [x["transactionId"] for x in expected["redemptions"]],
          "redemptions newest first: %r" % rows)
    check([r[1] for r in rows] == [x["appUserId"] for x in expected["redemptions"]], "their customers")
    check([r[3] for r in rows] == [TYPES[x["offerType"]] for x in expected["redemptions"]], "their offer types")
    check([r[4] for r in rows] == [x["offerIdentifier"] or "—" for x in expected["redemptions"]], "their offer ids")
    check(any(r[4] == markup for r in rows), "the markup offer id is shown as text: %r" % rows)
    check(any(r[1] == markup for r in t.get("Offer totals", [])), "and in the totals")
    check(driver.find_elements(By.CSS_SELECTOR, "img[src=x]") == [], "no markup made it into the page")
    check(all(r[7] == "Sandbox" for r in rows), "the environment: %r" % [r[7] for r in rows])
    shot("offers")

    # Two a page: "Older…" shows the next two, after the first page's last row.
    driver.get(base + "/dashboard/#offers/limit=2")
    ready()
    first = [r[8] for r in tables().get("Offer redemptions", [])]
    check(first == [x["transactionId"] for x in expected["redemptions"][:2]], "the first page: %r" % first)
    driver.find_element(By.ID, "older").click()
    wait.until(lambda d: [r[8] for r in tables().get("Offer redemptions", [])] != first)
    ready()
    second = [r[8] for r in tables().get("Offer redemptions", [])]
    check(second == [x["transactionId"] for x in expected["redemptions"][2:4]], "the second page: %r" % second)
    shot("offers-older")
    check(console_errors() == [], "console errors: %r" % console_errors())
finally:
    session.finish("all offers page checks passed")
