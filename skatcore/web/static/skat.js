// skat serve: the digit pad of the deal form, and htmx settings (no inline scripts: the CSP allows only files)
htmx.config.responseHandling = [
  {code: "204", swap: false},
  {code: "[23]..", swap: true},
  {code: "[4]..", swap: true, error: false},  // a refusal is one line to show, not a failure
  {code: "...", swap: false, error: true},
];
document.addEventListener("click", (e) => {
  const b = e.target.closest("button.digit");
  if (!b) return;
  const input = b.closest("form").querySelector("#points");
  input.value = b.dataset.digit === "back" ? input.value.slice(0, -1) : (input.value + b.dataset.digit).slice(-3);
  input.dispatchEvent(new Event("input", {bubbles: true}));
});
// another phone saved a deal: the new-deal form follows (its number, dealer, who sits out), a choice made is kept
document.addEventListener("htmx:afterSwap", () => {
  const sheet = document.getElementById("sheet"), form = document.querySelector("#entry[hx-post$='/deals']");
  if (!sheet || !form) return;
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
