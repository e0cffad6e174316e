"""The table on a phone: Chromium at 360x640 with touch, through the UI only."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from playwright.sync_api import Error as PlaywrightError

from tests.conftest import QUICK_BOTS, STILL_BOTS, LiveServer
from tests.e2e.conftest import drawn
from tests.e2e.test_tables import make_a_move, start

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def still(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("phone") / "instance"
    with LiveServer(instance, {**STILL_BOTS, "LAPAU_TABLE_SEED": "5"}) as server:
        yield server


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("phone-quick") / "instance"
    with LiveServer(instance, {**QUICK_BOTS, "LAPAU_TABLE_SEED": "5"}) as server:
        yield server


def socket_rendered(page: Page) -> None:
    """Wait for the socket's first render: it replaces the page's forms with ones that
    carry no CSRF token (until then a box may be measured just as it is swapped)."""
    page.wait_for_function("() => !document.querySelector('#hand input[name=csrf_token]')")


def open_table(
    context: BrowserContext, server: LiveServer, game: str, option: str, value: str
) -> Page:
    """A practice table on a new page, once the socket's first render has arrived."""
    page = context.new_page()
    start(page, server, game, option, value)
    socket_rendered(page)
    return page


def centre_x(locator: Locator) -> float:
    found = drawn(locator)
    return found["x"] + found["width"] / 2


def test_koa_draws_the_player_on_your_left_on_the_left(
    phone: BrowserContext, still: LiveServer
) -> None:
    page = open_table(phone, still, "koa", "mode", "quick")
    seats = [page.locator(f"#seat-{n}") for n in range(4)]
    me = next(n for n in range(4) if seats[n].count() == 0)
    left, across, right = seats[(me - 1) % 4], seats[(me + 2) % 4], seats[(me + 1) % 4]
    # How each seat stands to you is written on its box (outside the seat's fragment).
    expect(page.locator(".seat-box", has=left).locator(".relation")).to_have_text("on your left")
    expect(page.locator(".seat-box", has=across).locator(".relation")).to_have_text("mandan")
    expect(page.locator(".seat-box", has=right).locator(".relation")).to_have_count(0)
    assert centre_x(left) < centre_x(across) < centre_x(right)
    assert drawn(page.locator("#hand"))["y"] > drawn(left)["y"]  # you sit at the bottom


def test_the_koa_waiting_room_draws_the_player_on_your_left_on_the_left(
    phone: BrowserContext, still: LiveServer
) -> None:
    page = phone.new_page()
    page.goto(f"{still.url}/en/room/")
    page.get_by_role("button", name="Koa").click()
    page.wait_for_url("**/room/*")
    mine = page.locator(".seat.mine")
    expect(mine).to_be_visible()
    # The host sits in seat 0; the empty seats offer "Sit here" with their number.
    left = page.locator(".seat:has(button[value='sit 3'])")
    across = page.locator(".seat:has(button[value='sit 2'])")
    right = page.locator(".seat:has(button[value='sit 1'])")
    assert centre_x(left) < centre_x(mine) < centre_x(right)
    expect(left).to_contain_text("on your left")
    assert drawn(across)["y"] < drawn(left)["y"] < drawn(mine)["y"]


LITE = "50-50-50-1"  # the display cookie with lite cards on
GAMES = [("koa", "mode", "quick"), ("kowah", "players", "3"), ("koikoi", "rounds", "3")]
#: Every card drawn on the table as a picture: an SVG (a table card) or an image.
PICTURES = ".table svg, .table img"


@pytest.mark.parametrize(("game", "option", "value"), GAMES)
def test_lite_cards_reach_the_table_and_its_captured_piles(
    phone: BrowserContext, quick: LiveServer, game: str, option: str, value: str
) -> None:
    phone.add_cookies([{"name": "display", "value": LITE, "url": quick.url}])
    page = open_table(phone, quick, game, option, value)
    expect(page.locator("#hand .lite").first).to_be_visible()  # the socket's render too
    for _ in range(40):  # a few moves, so captured piles fill and fragments arrive
        if make_a_move(page) and page.locator(".pile .lite").count() >= 2:
            break
        page.wait_for_timeout(50)
    assert page.locator(PICTURES).count() == 0
    assert page.locator(".table .lite").count() > 10
    if game == "koikoi":
        for fold in page.locator(".pile-fold > summary").all():
            fold.focus()  # a phone keeps the captured piles folded until asked (your own
            fold.press("Enter")  # pile's fold lies under the dock until you scroll down)
        captured = page.locator(".pile .cards > *").all()
        assert len(captured) >= 2
        for card in captured:
            found = drawn(card)
            assert found["width"] > 10 and found["height"] > 10
            assert card.inner_text().strip()


def version_changes(page: Page, before: str) -> None:
    page.wait_for_function("(v) => document.getElementById('version').value !== v", arg=before)


def inside_viewport(locator: Locator) -> bool:
    found = drawn(locator)
    return found["y"] >= 0 and found["y"] + found["height"] <= 640 and found["x"] >= 0


def test_a_refused_card_is_dimmed_with_its_reason_and_answers_where_you_look(
    phone: BrowserContext, quick: LiveServer
) -> None:
    page = open_table(phone, quick, "kowah", "players", "3")
    assert page.locator(".status-live[aria-live=polite] #status").count() == 1
    assert page.locator("[aria-live=polite] > #log").count() == 1
    hand = page.locator("#hand button")
    take = page.locator("#prompt button[value=take]")
    for _ in range(5):  # the deal's first turn can only draw: draw, discard, come round again
        page.wait_for_selector("#status[data-turn='1']")
        if take.count():
            break
        assert hand.first.is_disabled()  # not the moment to discard
        before = page.locator("#version").input_value()
        page.locator("#prompt button[value=draw]").tap()
        version_changes(page, before)
        before = page.locator("#version").input_value()
        hand.first.tap()
        version_changes(page, before)
    assert hand.first.is_disabled()
    before = page.locator("#version").input_value()
    take.tap()
    version_changes(page, before)

    # The taken card (every copy of it: a discard names the card, not the copy).
    refused = page.locator("#hand button[aria-disabled=true]").first
    expect(refused).to_be_visible()
    reason = "You cannot discard the card you just took."
    assert refused.get_attribute("title") == reason
    assert refused.get_attribute("aria-description") == reason
    assert float(refused.evaluate("b => getComputedStyle(b).opacity")) < 0.6
    # A person can still tap it (Playwright's own tap() waits for aria-disabled to clear).
    found = drawn(refused)
    page.touchscreen.tap(found["x"] + found["width"] / 2, found["y"] + found["height"] / 2)
    notice = page.locator("#notice")
    expect(notice).to_have_text(reason)
    assert inside_viewport(notice)

    allowed = page.locator("#hand button:not([aria-disabled])").first
    before = page.locator("#version").input_value()
    allowed.tap()
    version_changes(page, before)
    page.wait_for_function("() => !!document.activeElement.closest('#hand')")


#: Every control a person may act on now: the prompt's buttons and the hand's playable cards.
ACTIONS = "#prompt button, #hand button:enabled:not([aria-disabled])"
#: Whether the box of each control lies fully inside the viewport and is what a tap at its
#: centre reaches (not hidden under the sticky status bar or the notice).
ON_FIRST_SCREEN = """(selector) => [...document.querySelectorAll(selector)].map((el) => {
  const r = el.getBoundingClientRect();
  const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {what: el.outerHTML.slice(0, 80), top: Math.round(r.top), bottom: Math.round(r.bottom),
          ok: inside && r.width > 0 && !!hit && el.contains(hit)};
})"""


def off_screen(page: Page, selector: str) -> list[dict[str, object]]:
    found: list[dict[str, object]] = page.evaluate(ON_FIRST_SCREEN, selector)
    return [control for control in found if not control["ok"]]


def wait_for_turn_or_end(page: Page, when: str) -> None:
    """Wait until the table waits for this player or the match is over; if neither comes,
    fail saying where the table stood (a busy machine has been seen to take 30 s)."""
    try:
        page.wait_for_function(
            "() => document.getElementById('status')?.dataset.turn === '1'"
            " || document.querySelector('.match-over') !== null",
            timeout=60_000,
        )
    except PlaywrightError as error:
        where = page.evaluate(
            "() => ['status', 'log', 'prompt']"
            ".map((id) => document.getElementById(id)?.outerHTML.slice(0, 400))"
        )
        raise AssertionError(f"{when} the table stood at {where}") from error


def tap_centre(page: Page, locator: Locator) -> None:
    """Tap where a thumb would: at the control's centre on the screen, never scrolling."""
    found = drawn(locator)
    page.touchscreen.tap(found["x"] + found["width"] / 2, found["y"] + found["height"] / 2)


@pytest.mark.parametrize(("game", "option", "value"), GAMES)
def test_everything_you_act_on_is_on_the_first_screen(
    phone: BrowserContext, quick: LiveServer, game: str, option: str, value: str
) -> None:
    """A whole match played by taps alone, never scrolling: at the start of every turn and
    after every step, each control you may use lies inside the 360x640 viewport; at the
    end the result and "Play again" do."""
    page = open_table(phone, quick, game, option, value)
    over = page.locator(".match-over")
    turns = 0
    for _ in range(400):
        wait_for_turn_or_end(page, f"after {turns} turns")
        if over.count():
            break
        page.wait_for_selector(ACTIONS)  # the hand's buttons enable just after the status
        controls = page.locator(ACTIONS)
        phase = page.locator("#status").get_attribute("data-phase")
        assert off_screen(page, ACTIONS) == [], f"turn {turns}, phase {phase}"
        before = page.locator("#version").input_value()
        tap_centre(page, controls.first)
        version_changes(page, before)
        turns += 1
    assert page.evaluate("() => scrollY") == 0  # nobody scrolled: taps alone
    expect(over).to_be_visible()
    assert off_screen(page, ".match-over h2, .match-over button") == []
    assert turns > 3


@pytest.fixture(scope="module")
def hasty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose rules' 30 seconds last one second, bots answering at once."""
    instance = tmp_path_factory.mktemp("phone-hasty") / "instance"
    env = {**QUICK_BOTS, "LAPAU_TURN_SECONDS": "1", "LAPAU_TABLE_SEED": "5"}
    with LiveServer(instance, env) as server:
        yield server


@pytest.mark.parametrize(("clock", "times_out"), [("0", False), ("30", True)])
def test_a_table_with_the_clock_off_never_times_out(
    phone: BrowserContext, hasty: LiveServer, clock: str, times_out: bool
) -> None:
    page = phone.new_page()
    page.goto(f"{hasty.url}/en/play/kowah")
    page.check("input[name=players][value='3']")
    page.check(f"input[name=clock][value='{clock}']")
    page.locator(".setup-form button").tap()
    page.wait_for_url("**/table/**")
    if times_out:  # the table plays the person's turns for them, and says so
        expect(page.locator("#log .timed-out")).to_be_visible(timeout=15_000)
        return
    page.wait_for_selector("#status[data-turn='1']")
    expect(page.locator("#status")).to_contain_text("No clock")
    assert page.locator(".timer").count() == 0
    seen = page.locator("#version").input_value()
    page.wait_for_timeout(4000)  # four of this server's 30-second turns
    assert page.locator("#version").input_value() == seen
    assert page.locator("#log .timed-out").count() == 0


#: Records each buzz the page asks the phone for (Chromium on a desktop has no motor).
RECORD_BUZZES = (
    "window.buzzes = [];"
    " navigator.vibrate = (pattern) => { window.buzzes.push(pattern); return true; };"
)


def play_one_turn(page: Page) -> None:
    """Play this seat's whole turn (every step), then wait until it is theirs again or the
    deal is over."""
    wait_for_turn_or_end(page, "before the turn")
    while page.locator("#status").get_attribute("data-turn") == "1":
        before = page.locator("#version").input_value()
        tap_centre(page, page.locator(ACTIONS).first)
        version_changes(page, before)
    wait_for_turn_or_end(page, "after the turn")


#: In one task of the page (so no message can land in between): unless the page has buzzed,
#: press this seat's first control when it is their turn; answers the version it pressed at,
#: "buzzed", "wait" or "no control yet".
PRESS_UNLESS_BUZZED = """(actions) => {
  if (window.buzzes.length) return "buzzed";
  if (document.getElementById("status")?.dataset.turn !== "1") return "wait";
  const control = document.querySelector(actions);
  if (!control) return "no control yet";
  const version = document.getElementById("version").value;
  control.click();
  return version;
}"""


def play_until_buzz(page: Page) -> bool:
    """Play this seat's moves until the page buzzes (True) or the deal ends first (False).

    Not "one turn, then look": quick bots may hand the turn back before such a loop sees
    it go, and it would play on into the next turn. Nor "look, then tap": the turn may come
    back (and buzz) between the two, and the tap would take the new turn's first step."""
    while True:
        if page.locator(".match-over").count():
            return False
        pressed = page.evaluate(PRESS_UNLESS_BUZZED, ACTIONS)
        if pressed == "buzzed":
            return True
        if pressed == "wait":
            wait_for_turn_or_end(page, "waiting for the turn")
        elif pressed == "no control yet":
            page.wait_for_selector(ACTIONS)
        else:
            version_changes(page, pressed)


def test_an_opt_in_cue_buzzes_when_your_turn_begins(
    phone: BrowserContext, quick: LiveServer
) -> None:
    phone.add_init_script(RECORD_BUZZES)
    page = open_table(phone, quick, "kowah", "players", "3")
    cue = page.locator("#cue")
    expect(cue).to_have_attribute("aria-pressed", "false")  # off unless asked for
    play_one_turn(page)
    assert page.evaluate("() => window.buzzes") == []
    cue.tap()
    expect(cue).to_have_attribute("aria-pressed", "true")
    # The switch lies at the foot of the page, below the log; back up to the table, where
    # the dock's top is not under the sticky status line.
    page.evaluate("() => scrollTo(0, 0)")
    for _ in range(5):  # a deal can end before the turn comes back: then another deal
        if play_until_buzz(page):
            break
        page = open_table(phone, quick, "kowah", "players", "3")
    else:
        raise AssertionError("five deals ended before a turn came back")
    assert page.evaluate("() => window.buzzes") == [150]
    # The turn's next step (its first is a draw or a take) buzzes no more: once a turn.
    before = page.locator("#version").input_value()
    tap_centre(page, page.locator(ACTIONS).first)
    version_changes(page, before)
    assert page.evaluate("() => window.buzzes") == [150]
    page.reload()  # this browser remembers the choice
    expect(page.locator("#cue")).to_have_attribute("aria-pressed", "true")


def test_four_player_kowah_names_keep_to_one_line(phone: BrowserContext, still: LiveServer) -> None:
    """Three opponents side by side at 360 px: each name takes one line (cut short with
    an ellipsis, whole in the text), not three."""
    page = open_table(phone, still, "kowah", "players", "4")
    names = page.locator(".seats .player .who b")
    expect(names).to_have_count(3)
    for name in names.all():
        line = float(name.evaluate("b => parseFloat(getComputedStyle(b).lineHeight)"))
        assert drawn(name)["height"] <= line * 1.2, name.inner_text()
        assert "(" in name.inner_text()  # the level is still there for screen readers


def test_more_time_is_on_the_first_screen_and_granted_once(
    phone: BrowserContext, quick: LiveServer
) -> None:
    """The "More time" button sits on the status line of a timed table during your turn;
    a tap starts the countdown again (no move: the version stays) and removes the button
    for the rest of the turn."""
    page = open_table(phone, quick, "koikoi", "rounds", "3")
    wait_for_turn_or_end(page, "at the start")
    more = page.locator("#more-time")
    assert off_screen(page, "#more-time") == []
    before = page.locator("#version").input_value()
    tap_centre(page, more)
    expect(more).to_have_count(0)
    expect(page.locator("#status .timer")).to_have_class(re.compile(r"^timer clock-60 left-60\b"))
    assert page.locator("#version").input_value() == before
    assert page.locator("#notice").inner_text() == ""
    assert off_screen(page, ACTIONS) == []  # the status line did not grow over the hand


def test_the_log_and_captured_piles_fold_and_stay_as_left_through_moves(
    phone: BrowserContext, quick: LiveServer
) -> None:
    """On a phone the captured piles start folded and the log open; each folds or opens
    with a tap, and the moves' fragments swap inside them without undoing that."""
    page = open_table(phone, quick, "koikoi", "rounds", "3")
    piles, log = page.locator(".pile-fold"), page.locator(".log-fold")
    assert piles.count() == 2 and [p.get_attribute("open") for p in piles.all()] == [None, None]
    assert log.get_attribute("open") == ""
    expect(piles.first.locator(".pile")).to_be_hidden()
    piles.first.locator("summary").tap()
    log.locator("summary").tap()
    # Playwright scrolled the log's fold into the middle of the screen (as far as the page
    # below it allows): the thumb goes back up to the hand.
    page.evaluate("window.scrollTo(0, 0)")
    for _ in range(3):  # moves and captures: #log and the piles' counts are swapped
        wait_for_turn_or_end(page, "before a move")
        before = page.locator("#version").input_value()
        tap_centre(page, page.locator(ACTIONS).first)
        version_changes(page, before)
    wait_for_turn_or_end(page, "after the moves")
    assert piles.first.get_attribute("open") == "" and piles.last.get_attribute("open") is None
    assert log.get_attribute("open") is None
    expect(page.locator("#log")).to_be_hidden()
    assert off_screen(page, ACTIONS) == []


def test_a_wide_screen_shows_the_captured_piles_unfolded(
    browser: Browser, quick: LiveServer
) -> None:
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = open_table(context, quick, "koikoi", "rounds", "3")
    piles = page.locator(".pile-fold")
    assert [p.get_attribute("open") for p in piles.all()] == ["", ""]
    captured = page.locator(".pile .cards > *")
    for _ in range(40):  # a few moves, until a card is captured
        if make_a_move(page) and captured.count():
            break
        page.wait_for_timeout(50)
    expect(captured.first).to_be_visible()
    context.close()


def month_of(locator: Locator) -> str:
    """A Koi-Koi card's month from its keyed id (hc-jan-crane-0, fc-jan-plain-1-0)."""
    return str(locator.get_attribute("id")).split("-")[1]


def outline_of(locator: Locator) -> str:
    return str(locator.evaluate("e => getComputedStyle(e).outlineStyle"))


@pytest.mark.parametrize("lite", [False, True])
def test_koikoi_marks_the_field_cards_a_hand_card_would_capture(
    phone: BrowserContext, still: LiveServer, lite: bool
) -> None:
    """When you are to play, the field cards of a month in your hand are marked (CSS alone,
    with pictures or lite cards); focusing a hand card lifts those of its own month."""
    if lite:
        phone.add_cookies([{"name": "display", "value": LITE, "url": still.url}])
    page = open_table(phone, still, "koikoi", "rounds", "3")
    expect(page.locator("#status")).to_have_attribute("data-turn", "1")
    hand = page.locator("#hand .cb").all()
    field = page.locator("#field .cards > *").all()
    held = {month_of(card) for card in hand}
    matched = [card for card in field if month_of(card) in held]
    assert matched and len(matched) < len(field), "seed 5 deals a field with and without matches"
    assert [outline_of(card) for card in field] == [
        "dashed" if card in matched else "none" for card in field
    ]
    chosen = next(card for card in hand if month_of(card) == month_of(matched[0]))
    chosen.focus()
    expect(chosen).to_be_focused()
    month = month_of(chosen)
    assert [outline_of(card) for card in field] == [
        "solid" if month_of(card) == month else "dashed" if card in matched else "none"
        for card in field
    ]


def test_the_turn_clock_ticks_once_a_second_without_an_animation(
    phone: BrowserContext, quick: LiveServer
) -> None:
    """With the table's script the clock's seconds and bar change once a second; no CSS
    animation runs for the whole turn (it was drawn sixty times a second: a tenth of a
    core per open table in Chromium)."""
    page = open_table(phone, quick, "koikoi", "rounds", "3")
    wait_for_turn_or_end(page, "at the start")
    count = page.locator("#status .timer .count")
    expect(count).to_have_text(re.compile(r"^\d+s$"))
    first = int(count.inner_text()[:-1])
    expect(count).not_to_have_text(f"{first}s", timeout=3000)  # a second later, one less
    assert 0 <= int(count.inner_text()[:-1]) < first <= 60
    scale = page.locator("#status .timer .bar").evaluate("b => b.style.transform")
    assert re.fullmatch(r"scaleX\(0\.\d+\)|scaleX\(1\)", scale), scale
    running = page.evaluate(
        "() => document.getAnimations().filter(a => a.effect.target.closest('.timer')).length"
    )
    assert running == 0
