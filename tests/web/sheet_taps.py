"""A scorer's phone at 390 px: a :class:`sheet_cases.Deal` entered by tapping
the deal form (chips, the digit pad, Save), every tap counted."""

from __future__ import annotations

import re

from sheet_cases import Deal

PHONE = {"width": 390, "height": 844}
MORE = {f"{kind}{n}" for kind in ("with", "without") for n in range(5, 12)}


class Phone:
    """One phone's page; ``taps`` counts clicks and choices."""

    def __init__(self, page):
        self.page, self.taps, self.digits = page, 0, 0  # digits: the taps on the pad's digits, of the taps
        self.kept = False  # the new-deal form holds a refused deal as typed

    def tap(self, selector: str) -> None:
        self.page.locator(selector).first.click()
        self.taps += 1

    def radio(self, name: str, value: str) -> None:
        box = self.page.locator(f"#entry input[name={name}][value='{value}']")
        if not box.is_checked():
            self.tap(f"#entry label:has(> input[name={name}][value='{value}'])")

    def check(self, name: str, value: str, on: bool) -> None:
        box = self.page.locator(f"#entry input[name={name}][value='{value}']")
        if box.count() and box.is_checked() != on:
            self.tap(f"#entry label:has(> input[name={name}][value='{value}'])")

    def number(self, field, value: int, default: bool = False) -> None:
        """Type ``value`` into ``field`` with the pad (tap the field first unless the pad types there anyway)."""
        if not default:
            field.click()
            self.taps += 1
        for _ in range(len(field.input_value())):
            self.tap("#entry button.digit[data-digit=back]")
        for digit in str(value):
            self.tap(f'#entry button.digit[data-digit="{digit}"]')
            self.digits += 1

    def extras(self) -> None:
        if self.page.locator("#entry details.extras").get_attribute("open") is None:
            self.tap("#entry details.extras > summary")

    def enter(self, deal: Deal, correction: bool = False) -> None:
        """Tap ``deal`` into the form of a new deal, or of a ``correction``."""
        page = self.page
        fresh = not correction and not self.kept  # nothing typed yet: the pad types into the first number field
        self.uid = None if correction else page.locator("#entry input[name=id]").get_attribute("value")
        self.radio("game", deal.game)
        if deal.game == "passed":
            return
        if deal.game == "ramsch":
            fields = page.locator("#entry input[name=ramsch_seat]")
            for i, v in enumerate(deal.ramsch):
                self.number(fields.nth(i), v, default=fresh and i == 0)
            tricks = page.locator("#entry input[name=ramsch_trick_seat]")
            for i, v in enumerate(deal.ramsch_tricks):
                if tricks.nth(i).input_value() != str(v):
                    self.number(tricks.nth(i), v)
            self.radio("last_trick", str(deal.last_trick))
            self.pushes(deal)
            return
        self.radio("declarer", str(deal.declarer))
        if deal.game == "instead":
            self.pushes(deal)
        if deal.game == "null":
            self.radio("null_tricks", "0" if deal.tricks == 0 else "1")
        else:
            if deal.matadors in MORE:
                page.select_option("#entry select[name=matadors_more]", deal.matadors)
                self.taps += 1
            else:
                self.radio("matadors", str(deal.matadors))  # the list of more matadors empties itself
            self.number(page.locator("#points"), int(deal.points), default=fresh)
            self.check("all_tricks", "all", deal.tricks is not None and deal.tricks > 0)
            self.check("all_tricks", "none", deal.tricks == 0)
        if deal.game != "instead":
            self.check("hand", "on", deal.hand)
        self.check("ouvert", "on", deal.ouvert)
        for box in page.locator("#entry input[name=call]").all():
            value = box.get_attribute("value")
            if box.is_checked() != (value in deal.calls):
                if not box.locator("xpath=..").is_visible():
                    self.extras()
                self.check("call", value, value in deal.calls)
        bid = page.locator("#entry select[name=bid]")
        wanted = {"schneider": deal.schneider, "schwarz": deal.schwarz}
        if (deal.game != "instead" and bid.count() and deal.bid is not None and bid.input_value() != str(deal.bid)) or \
                any(page.locator(f"#entry input[name={k}]").is_checked() != v for k, v in wanted.items()) or deal.decl or \
                page.locator("#entry input[name=decl]:checked:not([value$='='])").count():
            self.extras()
            if deal.game != "instead" and bid.count() and deal.bid is not None and bid.input_value() != str(deal.bid):
                page.select_option("#entry select[name=bid]", str(deal.bid))
                self.taps += 1
            for k, v in wanted.items():
                self.check(k, "on", v)
            for key in {d.split("=")[0] for d in self.page.locator("#entry input[name=decl]").evaluate_all(
                    "boxes => boxes.map(b => b.value)")}:
                self.radio("decl", next((d for d in deal.decl if d.startswith(f"{key}=")), f"{key}="))

    def pushes(self, deal: Deal) -> None:
        seats = ("forehand", "middlehand", "rearhand")
        for seat, push in zip(seats, deal.pushes or ["seen"] * 3, strict=False):
            if self.page.locator(f"#entry input[name=push_{seat}]").count():
                self.radio(f"push_{seat}", push)

    def settle(self) -> None:
        """Wait until no request of the page is under way (the count of what was typed is shown)."""
        self.page.wait_for_function("() => !document.querySelector('.htmx-request')")

    def save(self) -> str | None:
        """Tap Save; the refusal shown, or None once the deal is saved (a fresh form)."""
        page = self.page
        self.settle()
        with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/deals")) as answer:
            self.tap("#entry .save")
        self.kept = answer.value.status != 200
        if not self.kept:
            page.wait_for_function("uid => document.querySelector('#entry input[name=id]')?.value !== uid",
                                   arg=self.uid)
            return None
        page.wait_for_selector("#preview .error")
        return f"{page.locator('#preview .error').inner_text()} [{self.form()}]"

    def form(self) -> str:
        """What the form holds (a refusal's context)."""
        return self.page.locator("#entry").evaluate("f => [...new FormData(f)].map(x => x.join('=')).join('&')")

    def save_correction(self, name: str) -> str | None:
        page = self.page
        self.settle()
        with page.expect_response(lambda r: r.request.method == "POST" and re.search(r"/deals/\d+$", r.url)) as answer:
            self.tap("#entry .save")
        if answer.value.status == 204:
            page.wait_for_url(re.compile(rf"/s/{name}$"))
            page.wait_for_selector("#entry")
            return None
        page.wait_for_selector("#preview .error")
        return f"{page.locator('#preview .error').inner_text()} [{self.form()}]"
