// skat serve: the digit pad of the deal form, and htmx settings (no inline scripts: the CSP allows only files)
htmx.config.responseHandling = [
  {code: "204", swap: false},
  {code: "[23]..", swap: true},
  {code: "[4]..", swap: true, error: false},  // a refusal is one line to show, not a failure
  {code: "...", swap: false, error: true},
];
// the pad types into the number field last tapped (the card points unless a Ramsch field was)
let padTarget = null;
document.addEventListener("focusin", (e) => {
  if (e.target.matches && e.target.matches("#entry input[inputmode=numeric]")) padTarget = e.target;
});
document.addEventListener("click", (e) => {
  const b = e.target.closest("button.digit");
  if (!b) return;
  const form = b.closest("form");
  const ramsch = form.querySelector("#g-ramsch:checked");
  let input = padTarget && form.contains(padTarget) && padTarget.offsetParent !== null ? padTarget : null;
  if (!input) input = ramsch ? form.querySelector("input[name=ramsch_seat]") : form.querySelector("#points");
  const max = Number(input.getAttribute("maxlength") || 3);
  input.value = b.dataset.digit === "back" ? input.value.slice(0, -1) : (input.value + b.dataset.digit).slice(-max);
  input.dispatchEvent(new Event("input", {bubbles: true}));
});
// a Ramsch: the last player's tricks follow from the others' (every trick is someone's); typed over, they are his
document.addEventListener("input", (e) => {
  if (!e.target.matches || !e.target.matches("#entry input.rtricks")) return;
  const form = e.target.closest("form"), fields = [...form.querySelectorAll("input.rtricks")];
  const total = Number(form.querySelector("#tricks-total").value);
  e.target.dataset.auto = "";
  if (e.target.value === "") return;  // being corrected: nothing follows from it yet
  const typed = fields.filter((f) => f.dataset.auto !== "1" && f.value !== "");
  const rest = fields.filter((f) => !typed.includes(f) && f !== e.target);
  const sum = typed.reduce((s, f) => s + Number(f.value), 0);
  if (rest.length === 1 && sum <= total) { rest[0].value = String(total - sum); rest[0].dataset.auto = "1"; }
});
// another phone saved a deal: the new-deal form follows (its number, dealer, who sits out), a choice made is kept
document.addEventListener("htmx:afterSwap", () => {
  const sheet = document.getElementById("sheet"), form = document.querySelector("#entry[hx-post$='/deals']");
  if (!sheet || !form) return;
  const [kind, seats] = (form.dataset.kind || "").split(" "), [kindNow, seatsNow] = (sheet.dataset.kind || "").split(" ");
  if (kind && (kind !== kindNow || (seats !== seatsNow && !form.dataset.typed)) && form.dataset.asked !== sheet.dataset.version) {
    // the next deal is of another kind than the form offers (a Ramsch round began or ended), or a player its rows
    // name deals now and nothing was typed yet: the form drawn afresh (a deal being typed keeps its rows)
    form.dataset.asked = sheet.dataset.version;
    htmx.ajax("GET", "/s/" + encodeURIComponent(form.dataset.sheet) + "/entry", {target: form, swap: "outerHTML"});
    return;
  }
  form.querySelectorAll("#next-n, .next-n").forEach((el) => { el.textContent = sheet.dataset.next; });
  const dealer = form.querySelector("#next-dealer");
  if (dealer) dealer.textContent = sheet.dataset.dealer;
  const out = sheet.dataset.out ? sheet.dataset.out.split(",") : [];
  form.querySelectorAll("[data-testid=declarer] label[data-player]").forEach((label) => {
    const sits = out.includes(label.dataset.player), input = label.querySelector("input");
    label.classList.toggle("out", sits);
    input.disabled = sits;
    if (sits) input.checked = false;
  });
});
// choices that exclude each other but may both be left empty (a correction takes a schwarz back): checkboxes kept to
// one; the matadors beyond 4 (a list) and the chips are one choice
document.addEventListener("change", (e) => {
  const t = e.target;
  if (!t.matches || !t.closest("#entry")) return;
  const form = t.closest("form");
  if (t.matches("input[name=all_tricks]") && t.checked) {
    form.querySelectorAll("input[name=all_tricks]").forEach((o) => { if (o !== t) o.checked = false; });
  } else if (t.matches("input[name=matadors]")) {
    form.querySelector("select[name=matadors_more]").value = "";
  } else if (t.matches("select[name=matadors_more]") && t.value) {
    form.querySelectorAll("input[name=matadors]").forEach((o) => { o.checked = false; });
  }
});
// something typed or tapped into the new-deal form: another phone's save no longer draws it afresh (unless the kind changed)
["input", "change"].forEach((type) => document.addEventListener(type, (e) => {
  const form = e.target.closest && e.target.closest("#entry[data-kind]");
  if (form) form.dataset.typed = "1";
}));
// a fresh form that arrives after something was typed into the old one: the typed one stays
document.addEventListener("htmx:beforeSwap", (e) => {
  const t = e.detail.target, sheet = document.getElementById("sheet");
  if (!t || t.id !== "entry" || !t.dataset.typed || !sheet || !/\/entry$/.test(e.detail.pathInfo?.requestPath || "")) return;
  if ((t.dataset.kind || "").split(" ")[0] === (sheet.dataset.kind || "").split(" ")[0]) e.detail.shouldSwap = false;
});
