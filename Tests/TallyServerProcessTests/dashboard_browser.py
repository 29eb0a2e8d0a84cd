#!/usr/bin/env python3
"""Drives the dashboard of a running, seeded `tally serve` in headless Chromium (Selenium; tooling only).

Usage: dashboard_browser.py BASE_URL DASHBOARD_KEY SCREENSHOT_DIR SEARCH_TRANSACTION_ID SEARCH_OWNER REFUNDED_CUSTOMER XSS_ID
Exits 0 when every check passes; prints each failure and exits 1 otherwise.
"""
import json
import sys
import urllib.request

from selenium.webdriver.common.by import By

from browser_session import BrowserSession

base, key, shots, transaction_id, owner, refunded_customer, xss_id = sys.argv[1:8]


def api(path):
    request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + key})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


session = BrowserSession(shots)
driver, wait, check, console_errors, ready, shot = (session.driver, session.wait, session.check, session.console_errors,
                                                    session.ready, session.shot)


def text(element_id):
    return driver.find_element(By.ID, element_id).text


try:
    # A wrong key: the login form says so (its 401 is the only console error allowed, on this page only).
    driver.get(base + "/dashboard/")
    wait.until(lambda d: d.find_element(By.ID, "login").is_displayed())
    driver.find_element(By.ID, "key").send_keys("tk_dashboard_wrong")
    driver.find_element(By.CSS_SELECTOR, "#login button").click()
    wait.until(lambda d: d.find_element(By.ID, "login-error").is_displayed())
    check("refused" in text("login-error"), "a wrong key shows a login error, got %r" % text("login-error"))
    check(driver.execute_script("return sessionStorage.getItem('tally.dashboardKey')") is None,
          "a refused key is not kept")
    shot("login-error")
    check(console_errors(allowed=("401",)) == [], "console errors on the login page")

    # The right key: the overview's numbers are the API's.
    driver.find_element(By.ID, "key").clear()
    driver.find_element(By.ID, "key").send_keys(key)
    driver.find_element(By.CSS_SELECTOR, "#login button").click()
    wait.until(lambda d: d.find_element(By.ID, "nav").is_displayed())
    ready()
    wait.until(lambda d: d.find_elements(By.ID, "active-subscriptions"))
    overview = api("/v1/dashboard/overview?days=30")
    check(text("active-subscriptions") == str(overview["activeSubscriptions"]),
          "active subscriptions %r vs API %r" % (text("active-subscriptions"), overview["activeSubscriptions"]))
    check(text("active-trials") == str(overview["activeTrials"]), "active trials")
    check(text("billing-retry") == str(overview["inBillingRetry"]), "billing retry")
    check(text("grace-period") == str(overview["inGracePeriod"]), "grace period")
    new_customers = sum(day["newCustomers"] for day in overview["daily"])
    check(text("new-customers") == str(new_customers), "new customers %r vs %r" % (text("new-customers"), new_customers))
    check(driver.execute_script("return sessionStorage.getItem('tally.dashboardKey')") == key, "key in sessionStorage")
    check(key not in driver.current_url, "the key never in the URL")
    check(driver.get_cookies() == [], "no cookies")
    check(len(driver.find_elements(By.CSS_SELECTOR, "canvas")) == 3 or driver.find_elements(By.ID, "charts-missing"),
          "charts, or the note that Chart.js is missing")
    shot("overview")
    check(console_errors() == [], "console errors on the overview")

    # Search by transaction id, then the customer page.
    driver.get(base + "/dashboard/#customers")
    ready()
    search = driver.find_element(By.ID, "search")
    search.send_keys(transaction_id)
    search.submit()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "a.customer-link"))
    links = driver.find_elements(By.CSS_SELECTOR, "a.customer-link")
    check([link.text for link in links] == [owner], "search by transaction id found %r" % [l.text for l in links])
    shot("search")
    links[0].click()
    wait.until(lambda d: d.find_elements(By.ID, "customer-id"))
    ready()
    check(text("customer-id") == owner, "the customer page of the search result")
    check(console_errors() == [], "console errors on search / customer")

    # The refunded transaction shows as refunded.
    driver.get(base + "/dashboard/#customer/" + urllib.parse.quote(refunded_customer, safe=""))
    ready()
    wait.until(lambda d: d.find_elements(By.ID, "customer-id") and d.find_element(By.ID, "customer-id").text == refunded_customer)
    refunded = driver.find_elements(By.CSS_SELECTOR, ".refunded")
    check(len(refunded) == 1 and refunded[0].text.startswith("Refunded"), "the refund shown as refunded")
    shot("refunded")

    # The XSS id renders as text: no <img> element, no alert.
    driver.get(base + "/dashboard/#customers/" + urllib.parse.quote("<img", safe=""))
    ready()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "a.customer-link"))
    check([l.text for l in driver.find_elements(By.CSS_SELECTOR, "a.customer-link")] == [xss_id], "the XSS id as text")
    check(driver.find_elements(By.CSS_SELECTOR, "#view img") == [], "no <img> element made from a customer id")
    driver.find_element(By.CSS_SELECTOR, "a.customer-link").click()
    wait.until(lambda d: d.find_elements(By.ID, "customer-id"))
    ready()
    check(text("customer-id") == xss_id, "the XSS id's page shows it as text")
    aliases = driver.find_elements(By.CSS_SELECTOR, "table[aria-label=Aliases] tbody td")
    check(len(aliases) == 2 and aliases[0].text.startswith("$tally:anon:"), "the alias listed: %r" % [a.text for a in aliases])
    attributes = [c.text for c in driver.find_elements(By.CSS_SELECTOR, "table[aria-label=Attributes] tbody td")]
    check(attributes == ["bio", "<img src=y onerror=alert(2)>"], "the attribute listed as text: %r" % attributes)
    check(driver.find_elements(By.CSS_SELECTOR, "#view img") == [], "no <img> on the XSS id's page")
    try:
        alert = driver.switch_to.alert
        check(False, "an alert ran: %r" % alert.text)
    except Exception:
        pass
    shot("xss-as-text")

    # A phone-width window: the overview fits without scrolling sideways.
    driver.set_window_size(390, 844)
    driver.get(base + "/dashboard/#overview/7")
    ready()
    wait.until(lambda d: d.find_elements(By.ID, "active-subscriptions"))
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    check(overflow <= 0, "the overview is %s px wider than a phone-width window" % overflow)
    shot("overview-phone")
    driver.set_window_size(1200, 900)

    # Keyboard: Tab reaches the navigation, Enter follows a link.
    driver.get(base + "/dashboard/#overview")
    ready()
    body = driver.find_element(By.TAG_NAME, "body")
    from selenium.webdriver.common.keys import Keys
    for _ in range(40):  # the overview's own stops first when focus was last inside the page (date fields: 3 each)
        body = driver.switch_to.active_element
        if body.tag_name == "a" and body.text == "Transactions":
            break
        body.send_keys(Keys.TAB)
    check(driver.switch_to.active_element.text == "Transactions", "Tab reaches the Transactions link")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait.until(lambda d: d.current_url.endswith("#transactions"))
    ready()

    # The date-range picker by keyboard: Tab to From, type a date (en-US: month, day, year), Tab to To, type, Enter.
    import datetime
    today = datetime.datetime.now(datetime.timezone.utc).date()
    first, last = today - datetime.timedelta(days=40), today
    driver.get(base + "/dashboard/#overview/7")
    ready()
    for _ in range(20):
        if driver.switch_to.active_element.get_attribute("id") == "range-from":
            break
        driver.switch_to.active_element.send_keys(Keys.TAB)
    check(driver.switch_to.active_element.get_attribute("id") == "range-from", "Tab reaches the From date")
    driver.switch_to.active_element.send_keys(first.strftime("%m%d%Y"))
    check(driver.find_element(By.ID, "range-from").get_attribute("value") == first.isoformat(),
          "From typed: %r" % driver.find_element(By.ID, "range-from").get_attribute("value"))
    for _ in range(4):  # past the From field's remaining segments
        if driver.switch_to.active_element.get_attribute("id") == "range-to":
            break
        driver.switch_to.active_element.send_keys(Keys.TAB)
    check(driver.switch_to.active_element.get_attribute("id") == "range-to", "Tab goes on to the To date")
    driver.switch_to.active_element.send_keys(last.strftime("%m%d%Y"))
    check(driver.find_element(By.ID, "range-to").get_attribute("value") == last.isoformat(),
          "To typed: %r" % driver.find_element(By.ID, "range-to").get_attribute("value"))
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wanted = "#overview/%s/%s" % (first.isoformat(), last.isoformat())
    try:
        wait.until(lambda d: d.current_url.endswith(wanted))
    except Exception:
        pass
    check(driver.current_url.endswith(wanted), "the chosen range in the address: %r" % driver.current_url)
    ready()
    wait.until(lambda d: d.find_elements(By.ID, "active-subscriptions"))
    chosen = api("/v1/dashboard/overview?from=%s&to=%s" % (first.isoformat(), last.isoformat()))
    check(len(chosen["daily"]) == 41, "41 days from the API")
    chosen_new = sum(day["newCustomers"] for day in chosen["daily"])
    check(text("new-customers") == str(chosen_new), "new customers over the chosen range %r vs %r" % (text("new-customers"), chosen_new))
    per_day = driver.find_elements(By.CSS_SELECTOR, "table[aria-label='Per day'] tbody tr")
    check(len(per_day) == 41, "the per-day table has the range's 41 days, got %d" % len(per_day))
    check(driver.find_element(By.ID, "range").get_attribute("value") == "custom", "the picker says chosen dates")
    shot("overview-range")
    # A range the server refuses: the reason shows, the picker stays.
    driver.get(base + "/dashboard/#overview/%s/%s" % (last.isoformat(), first.isoformat()))
    ready()
    wait.until(lambda d: d.find_elements(By.ID, "range-error"))
    check("after" in text("range-error"), "a reversed range says why: %r" % text("range-error"))
    check(driver.find_elements(By.ID, "range-from"), "the picker stays on a refused range")
    check(console_errors(allowed=("400",)) == [], "console errors on the range picker")

    # The transactions list filtered to refunds: the one refund, marked refunded.
    driver.get(base + "/dashboard/#transactions/refunded=true")
    ready()
    rows = driver.find_elements(By.CSS_SELECTOR, "#view tbody tr")
    check(len(rows) == 1 and rows[0].find_elements(By.CSS_SELECTOR, ".refunded"), "one refunded transaction listed")
    check(refunded_customer in rows[0].text if rows else False, "the refund is %s's" % refunded_customer)
    shot("transactions-refunded")

    # Paging: three at a time, "Older…" to the next page, until the last; together the API's whole list in order.
    whole = [t["transactionId"] for t in api("/v1/dashboard/transactions?limit=500")["transactions"]]
    driver.get(base + "/dashboard/#transactions/limit=3")
    ready()
    seen, pages = [], 0
    while pages < 10:
        pages += 1
        rows = driver.find_elements(By.CSS_SELECTOR, "#view tbody tr")
        seen += [row.find_elements(By.TAG_NAME, "td")[3].text for row in rows]
        older = driver.find_elements(By.ID, "older")
        if not older:
            break
        previous = driver.current_url
        # A script click: under load the page may still be laying out, and a key press then meets "not interactable".
        driver.execute_script("arguments[0].scrollIntoView(); arguments[0].click();", older[0])
        wait.until(lambda d: d.current_url != previous)
        ready()
    check(seen == whole, "the pages of 3 are the whole list: %r vs %r" % (seen, whole))
    check(pages == (len(whole) + 2) // 3, "%d pages for %d transactions" % (pages, len(whole)))
    shot("transactions-last-page")

    # Notifications without a customer: only the pending one waits for its chain's owner; the recorded one
    # (TEST: a type that carries no customer state) says so instead.
    driver.get(base + "/dashboard/#notifications")
    ready()
    cells = {}
    for row in driver.find_elements(By.CSS_SELECTOR, "#view tbody tr"):
        columns = [td.text for td in row.find_elements(By.TAG_NAME, "td")]
        cells[(columns[1], columns[4])] = columns[3]
    check(cells.get(("ONE_TIME_CHARGE", "pending")) == "(waiting for its chain's owner)",
          "the pending notification waits for its chain's owner: %r" % cells)
    recorded = cells.get(("TEST", "recorded"))
    check(recorded is not None and "waiting" not in recorded and "no customer state" in recorded,
          "the recorded TEST notification says it carries no customer state: %r" % recorded)
    shot("notifications")

    for page in ["transactions", "notifications", "catalog"]:
        driver.get(base + "/dashboard/#" + page)
        ready()
        check(not driver.find_elements(By.CSS_SELECTOR, "#view .error"), "the %s page loads" % page)
    check(console_errors() == [], "console errors on transactions / notifications / catalog")
finally:
    print("screenshots:", shots)
    session.finish("dashboard browser checks passed")
