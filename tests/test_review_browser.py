"""The review page in a real browser: headless Debian Chromium driven by Selenium.

``inscoqa data review FILE --reviewer ana`` runs in a subprocess; the test accepts a sample,
rejects one (first without a reason, which is refused), edits the answer and steps of the third,
reloads the page and finds every verdict again, as saved in the reviewer's verdict file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_app_browser import (  # noqa: F401 - fixtures shared with the demo's browser test
    CHROMEDRIVER,
    CHROMIUM,
    app_url,
    browser,
    free_port,
    memory_dir,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
                       reason="needs Debian's chromium and chromium-driver "
                              "(bash scripts/setup.sh --test installs them)"),
]

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("review-browser")


@pytest.fixture(scope="module")
def dataset(workdir: Path) -> Path:
    from inscoqa.bundled import load_sample
    from inscoqa.io import save_conversations

    return save_conversations(load_sample("dev-officedocs")[:3], workdir / "dataset.jsonl")


@pytest.fixture(scope="module")
def page_url(workdir: Path, dataset: Path) -> Iterator[str]:
    port = free_port()
    log_path = workdir / "review.log"
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "inscoqa", "data", "review", str(dataset), "--reviewer", "ana",
             "--port", str(port)], cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the review page exited with {proc.returncode}:\n{log_path.read_text()}")
            try:
                with urllib.request.urlopen(url, timeout=5) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the review page did not answer at {url}:\n{log_path.read_text()}")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


class ReviewPage:
    def __init__(self, driver: WebDriver, url: str, timeout: float = 60):
        self.driver = driver
        self.timeout = timeout
        driver.get(url)
        self.wait_until(lambda: self.text("review-progress").startswith("Sample"))

    def wait_until(self, condition: object) -> object:
        return WebDriverWait(self.driver, self.timeout,
                             ignored_exceptions=[StaleElementReferenceException]).until(
            lambda _: condition())  # type: ignore[operator]

    def text(self, elem_id: str) -> str:
        return self.driver.find_element(By.ID, elem_id).text

    def box(self, elem_id: str) -> str:
        return self.driver.find_element(By.CSS_SELECTOR, f"#{elem_id} textarea").get_attribute(
            "value") or ""

    def type(self, elem_id: str, text: str) -> None:
        area = self.driver.find_element(By.CSS_SELECTOR, f"#{elem_id} textarea")
        area.send_keys(Keys.CONTROL, "a")
        area.send_keys(Keys.DELETE)
        area.send_keys(text)

    def press(self, elem_id: str, expect: str) -> None:
        """Click a button and wait until the verdict line says ``expect``."""
        self.driver.find_element(By.ID, elem_id).click()
        self.wait_until(lambda: expect in self.text("review-verdict"))

    def sample(self) -> int:
        return int(self.text("review-progress").split("Sample ", 1)[1].split(" ", 1)[0])


def test_accept_reject_edit_and_reload(browser: WebDriver, page_url: str, dataset: Path,  # noqa: F811
                                       workdir: Path) -> None:
    from inscoqa.io import load_conversations

    convs = list(load_conversations(dataset))
    page = ReviewPage(browser, page_url)
    assert page.sample() == 1 and "reviewed 0/3" in page.text("review-progress")
    # what a reviewer needs to judge the sample is on the page
    assert convs[0].question in page.text("review-question")
    assert convs[0].history[0][0] in page.text("review-history")
    assert convs[0].documents[0].title in page.text("review-documents")
    assert page.box("review-answer") == convs[0].answer
    assert page.box("review-steps").splitlines()[0] == f"1. {convs[0].procedures[0]}"

    page.press("review-accept", "Saved: accepted")
    page.wait_until(lambda: page.sample() == 2)
    page.press("review-reject", "a rejection needs a reason")
    assert page.sample() == 2
    page.type("review-reason", "the history does not lead to the question")
    page.press("review-reject", "Saved: rejected")
    page.wait_until(lambda: page.sample() == 3)
    page.type("review-answer", "Open the file, then save it under a new name.")
    page.type("review-steps", "1. Open the file.\n2. Choose Save As.\n3. Type the new name.")
    page.press("review-edit", "Saved: accepted with your edit")
    assert "reviewed 3/3" in page.text("review-progress")
    screenshot = workdir / "review.png"
    browser.save_screenshot(str(screenshot))
    print(f"screenshot: {screenshot}")

    # a reload (or a closed and reopened page) shows every verdict again
    page = ReviewPage(browser, page_url)
    assert page.sample() == 3 and "reviewed 3/3" in page.text("review-progress")
    assert "accepted with your edit" in page.text("review-verdict")
    assert page.box("review-answer") == "Open the file, then save it under a new name."
    assert page.box("review-steps").splitlines() == ["1. Open the file.", "2. Choose Save As.",
                                                     "3. Type the new name."]
    page.driver.find_element(By.ID, "review-prev").click()
    page.wait_until(lambda: page.sample() == 2)
    assert "rejected" in page.text("review-verdict")
    assert page.box("review-reason") == "the history does not lead to the question"

    lines = (workdir / "dataset.review" / "ana.jsonl").read_text().splitlines()
    saved = {r["sample_id"]: r for r in map(json.loads, lines)}
    assert [saved[c.id]["decision"] for c in convs] == ["accept", "reject", "edit"]
    assert saved[convs[2].id]["procedures"] == ["Open the file.", "Choose Save As.",
                                                "Type the new name."]


def test_the_demo_has_a_review_tab(browser: WebDriver, app_url: str, workdir: Path,  # noqa: F811
                                   dataset: Path) -> None:
    """``python app.py``: the chat is the first tab; the Review tab opens a file for a reviewer."""
    browser.get(app_url)
    wait = WebDriverWait(browser, 60, ignored_exceptions=[StaleElementReferenceException])
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#question textarea"))
    tab = next(b for b in browser.find_elements(By.CSS_SELECTOR, "button[role=tab]")
               if b.text.strip() == "Review")
    tab.click()
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#review-file textarea, "
                                                           "#review-file input").is_displayed())
    for elem_id, value in (("review-file", str(dataset)), ("review-reviewer", "bo")):
        box = browser.find_element(By.CSS_SELECTOR, f"#{elem_id} textarea, #{elem_id} input")
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(Keys.DELETE)
        box.send_keys(value)
    browser.find_element(By.ID, "review-open").click()
    wait.until(lambda d: "reviewer bo" in d.find_element(By.ID, "review-progress").text)
    browser.find_element(By.ID, "review-accept").click()
    wait.until(lambda d: "Saved: accepted" in d.find_element(By.ID, "review-verdict").text)
    saved = [json.loads(x) for x in (workdir / "dataset.review" / "bo.jsonl").read_text().splitlines()]
    assert [(v["reviewer"], v["decision"]) for v in saved] == [("bo", "accept")]
