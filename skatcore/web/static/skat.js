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
