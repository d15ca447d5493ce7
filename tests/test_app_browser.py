"""The demo in a real browser: headless Debian Chromium driven by Selenium.

The app runs as ``python app.py`` in a subprocess on a free localhost port, over a small real
memory built from a few bundled documents. The test holds a two-turn conversation, uploads a
document and asks about it, and checks what the page shows (steps with the snippets that ground
them or the marker of an ungrounded step, sources). Screenshots go to the test's temporary
directory (their paths are printed).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "app_fixtures"
UPLOADED = FIXTURES / "descale-espresso-machine.md"
MEMORY_DOCS = [
    "gnome-help/net-wireless-connect.page",
    "gnome-help/net-wireless-hidden.page",
    "gnome-help/printing-setup.page",
    "based-cooking/banana-bread.md",
]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
                       reason="needs Debian's chromium and chromium-driver "
                              "(/usr/bin/chromium, /usr/bin/chromedriver): "
                              "bash scripts/setup.sh --test installs them"),
]

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("demo-browser")


@pytest.fixture(scope="module")
def memory_dir(workdir: Path) -> Path:
    from inscoqa.bundled import corpus_index
    from procmem.memory import build_memory

    index = corpus_index()
    memory = build_memory([index.get(doc_id) for doc_id in MEMORY_DOCS], progress=False)
    path = workdir / "memory"
    memory.save(path)
    return path


@pytest.fixture(scope="module")
def app_url(workdir: Path, memory_dir: Path) -> Iterator[str]:
    port = free_port()
    env = dict(os.environ, INSCOQA_CACHE_DIR=str(workdir / "llm-cache"),
               INSCOQA_LOG_DIR=str(workdir / "llm-logs"), INSCOQA_MAX_TOKENS="128",
               PYTHONUNBUFFERED="1")
    log_path = workdir / "app.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "app.py"), "--memory", str(memory_dir),
             "--port", str(port), "--answerer", "extractive"],
            cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the app exited with {proc.returncode}:\n{log_path.read_text()}")
            try:
                with urllib.request.urlopen(url, timeout=5) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the app did not answer at {url}:\n{log_path.read_text()}")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        print(f"app log: {log_path}")
    # the app stopped the engine it started (its log is named embedded-<time>-<port>.log)
    for engine_log in (workdir / "llm-logs").glob("embedded-*.log"):
        port = int(engine_log.stem.rsplit("-", 1)[1])
        assert wait_until_closed(port), f"the engine on port {port} outlived the app"


def wait_until_closed(port: int, timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) != 0:
                return True
        time.sleep(0.5)
    return False


@pytest.fixture(scope="module")
def browser(workdir: Path) -> Iterator[WebDriver]:
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must not download anything
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=1400,1200",
                f"--user-data-dir={workdir / 'chromium-profile'}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


class ChatPage:
    """The demo page, seen through its stable element ids."""

    def __init__(self, driver: WebDriver, url: str, timeout: float = 60):
        self.driver = driver
        self.timeout = timeout
        driver.get(url)
        self.wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#question textarea"))
        self.wait_until(lambda: self.text("memory-status").startswith("Memory"))

    def wait_until(self, condition: object, timeout: float | None = None) -> object:
        # elements re-rendered while being read are read again on the next poll
        return WebDriverWait(self.driver, timeout or self.timeout,
                             ignored_exceptions=[StaleElementReferenceException]).until(
            lambda _: condition())  # type: ignore[operator]

    def text(self, elem_id: str) -> str:
        return self.driver.find_element(By.ID, elem_id).text

    def bot_messages(self) -> list[str]:
        return [e.text for e in self.driver.find_elements(By.CSS_SELECTOR,
                                                          "#chat [data-testid=bot]")]

    def user_messages(self) -> list[str]:
        return [e.text for e in self.driver.find_elements(By.CSS_SELECTOR,
                                                          "#chat [data-testid=user]")]

    def busy(self) -> bool:
        return bool(self.driver.find_elements(By.CSS_SELECTOR, ".generating, .pending"))

    def ask(self, question: str, timeout: float | None = None) -> str:
        """Send a question; wait for the complete reply and return it."""
        n = len(self.bot_messages()) + 1
        box = self.driver.find_element(By.CSS_SELECTOR, "#question textarea")
        box.send_keys(question)
        self.driver.find_element(By.ID, "send").click()
        self.wait_until(lambda: len(self.bot_messages()) == n and not self.busy()
                        and "Thinking" not in self.bot_messages()[-1], timeout)
        return self.bot_messages()[-1]

    def new_chat(self) -> None:
        self.driver.find_element(By.ID, "new-conversation").click()
        self.wait_until(lambda: not self.bot_messages() and not self.steps())

    def steps(self) -> list[str]:
        return [e.text for e in self.driver.find_elements(By.CSS_SELECTOR, "#steps li")]

    def step_groundings(self) -> list[tuple[bool, str]]:
        """Per step of the steps panel: whether it carries the ungrounded marker, and the
        snippet line (with the source's title) shown under it ("" when none)."""
        out = []
        for item in self.driver.find_elements(By.CSS_SELECTOR, "#steps li"):
            quotes = item.find_elements(By.CSS_SELECTOR, "blockquote")
            out.append((UNGROUNDED_TEXT in item.text, quotes[0].text if quotes else ""))
        return out

    def open_panel(self, elem_id: str) -> None:
        content = self.driver.find_element(
            By.CSS_SELECTOR, f"#{elem_id} [data-testid=accordion-content]")
        if not content.is_displayed():
            self.driver.find_element(By.CSS_SELECTOR, f"#{elem_id} button.label-wrap").click()

    def upload(self, path: Path) -> str:
        self.open_panel("add-documents")
        self.wait_until(lambda: self.driver.find_elements(By.CSS_SELECTOR,
                                                          "#upload input[type=file]"))
        before = self.text("upload-status")
        self.driver.find_element(By.CSS_SELECTOR, "#upload input[type=file]").send_keys(str(path))
        self.wait_until(lambda: path.name in self.text("upload-status") or (
            self.text("upload-status") not in ("", before) and not self.busy()))
        return self.text("upload-status")

    def choose_answerer(self, name: str) -> None:
        self.open_panel("settings")
        box = self.driver.find_element(By.CSS_SELECTOR, "#answerer input")
        box.click()
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(name, Keys.ENTER)
        self.wait_until(lambda: box.get_attribute("value") == name)

    def screenshot(self, path: Path) -> Path:
        self.driver.save_screenshot(str(path))
        print(f"screenshot: {path}")
        return path


@pytest.fixture(scope="module")
def page(browser: WebDriver, app_url: str) -> ChatPage:
    return ChatPage(browser, app_url)


UNGROUNDED_TEXT = "not found in the sources"  # the page's marker of an ungrounded step


def check_step_marking(page: ChatPage, reply: str, titles: list[str]) -> int:
    """Every step shows either the snippet that grounds it, with one of ``titles``, or the
    marker; the reply in the chat marks the same steps. Returns how many are grounded."""
    marking = page.step_groundings()
    assert marking, "the steps panel is empty"
    for marked, quote in marking:
        assert marked != bool(quote), marking  # one or the other, never both, never neither
        if quote:
            assert quote.startswith("“") and "” — " in quote, quote
            assert any(title in quote for title in titles), quote
    assert reply.count(UNGROUNDED_TEXT) == sum(marked for marked, _ in marking)
    return sum(not marked for marked, _ in marking)


def memory_titles() -> list[str]:
    from inscoqa.bundled import corpus_index

    index = corpus_index()
    return [index.get(doc_id).title for doc_id in MEMORY_DOCS]


def test_two_turns_then_an_uploaded_document(page: ChatPage, workdir: Path) -> None:
    page.choose_answerer("extractive")
    first = page.ask("How do I connect to a wireless network?")
    assert page.steps(), "the steps panel is empty after the first reply"
    assert "Sources:" in first
    assert any(title in page.text("sources") for title in memory_titles())
    # the extractive answer's steps are the pages' own: each shows the snippet it is found in
    assert check_step_marking(page, first, memory_titles()) == len(page.steps())

    second = page.ask("And if the network is hidden?")
    assert page.user_messages() == ["How do I connect to a wireless network?",
                                    "And if the network is hidden?"]
    assert len(page.bot_messages()) == 2 and second
    assert page.steps()
    assert "Connect to a hidden wireless network" in page.text("sources")
    page.screenshot(workdir / "two-turns.png")

    status = page.upload(UPLOADED)
    assert status == "✅ Added to the memory: “Descale an espresso machine”."
    assert page.text("memory-status").startswith("Memory")
    assert f"{len(MEMORY_DOCS) + 1} documents" in page.text("memory-status")

    page.new_chat()  # a new topic: the earlier turns would steer the search
    third = page.ask("How do I descale my espresso machine?")
    assert "Descale an espresso machine" in page.text("sources")
    assert "Descale an espresso machine" in third
    assert any("citric acid" in step or "descal" in step.lower() for step in page.steps())
    page.screenshot(workdir / "uploaded-document.png")


def test_a_broken_upload_is_explained_on_the_page(page: ChatPage) -> None:
    status = page.upload(FIXTURES / "broken.page")
    assert "broken.page" in status and "XML parse error" in status
    assert f"{len(MEMORY_DOCS) + 1} documents" in page.text("memory-status")


def test_a_turn_with_a_model_answerer_on_the_embedded_engine(page: ChatPage,
                                                             workdir: Path) -> None:
    page.choose_answerer("rag")
    page.new_chat()
    reply = page.ask("How do I print from my laptop to a new printer?", timeout=600)
    assert "⚠ **" not in reply, reply  # no engine failure notice
    assert page.steps() and all(page.steps()), "a step of the reply shows no text"
    # the model's steps: each is grounded in a retrieved page or marked as not found there
    check_step_marking(page, reply, memory_titles())
    assert any(title in page.text("sources") for title in memory_titles())
    assert "engine:" in page.text("engine-status")
    page.screenshot(workdir / "model-answerer.png")
