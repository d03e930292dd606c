// skat serve: a deal save that never reached the server says so at once, is kept on this phone (localStorage,
// one entry per sheet and deal id) and is sent again when the server answers: on the browser's `online`, every few
// seconds, and when a page of the sheet is opened.  The server saves a deal id once, so a resend never doubles a
// deal.  A refusal (4xx) is not kept: the form shows why (#preview).  The texts come translated from the page, in
// the data- attributes of this script's tag (base.html); every text is set as textContent, never as HTML.
(function () {
  "use strict";
  const tag = document.currentScript, say = (tag && tag.dataset) || {};
  const PREFIX = "skat-unsent:", RETRY_MS = 5000;
  let sending = false, problem = "failed", order = 0;

  // (getAttribute: the form's own `id` property is its input named "id", the deal id)
  const isForm = (elt) => !!elt && elt.getAttribute && elt.getAttribute("id") === "entry";
  const isSave = (elt) => isForm(elt) && /\/deals$/.test(elt.getAttribute("hx-post") || "");
  const sheetName = () => { const f = document.querySelector("form[data-sheet]"); return f ? f.dataset.sheet : null; };

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }  // (blocked by the browser's settings)
  }

  function queued(sheet) {
    const store = storage(), items = [];
    if (!store || !sheet) return items;
    for (let i = 0; i < store.length; i++) {
      const key = store.key(i);
      if (!key || !key.startsWith(PREFIX + sheet + ":")) continue;
      try {
        const item = JSON.parse(store.getItem(key));
        if (item && typeof item.body === "string" && typeof item.url === "string") items.push({key, ...item});
        else store.removeItem(key);
      } catch (e) { store.removeItem(key); }
    }
    return items.sort((a, b) => a.at - b.at || a.order - b.order);
  }

  // the form's deal, kept under its sheet and deal id (a second failure of the same deal keeps the first)
  function keep(form) {
    const store = storage(), body = new URLSearchParams(new FormData(form)), id = body.get("id");
    if (!store || !id || !form.dataset.sheet) return false;
    const key = PREFIX + form.dataset.sheet + ":" + id;
    try {
      if (store.getItem(key) === null) {
        store.setItem(key, JSON.stringify({at: Date.now(), order: order++, url: form.getAttribute("hx-post"),
                                           body: body.toString()}));
      }
      return true;
    } catch (e) { return false; }  // (storage full)
  }

  // the form for the next deal: empty, a new deal id (the kept one must not be reused), the next number
  function fresh(form) {
    form.reset();
    const id = form.querySelector("input[name=id]");
    if (id) {
      const bytes = crypto.getRandomValues(new Uint8Array(6));
      id.value = "w" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    }
    form.querySelectorAll("#next-n, .next-n").forEach((el) => {
      const n = Number(el.textContent);
      if (n) el.textContent = String(n + 1);
    });
    // who sits out next is the server's to say: until it answers, every declarer may be chosen (it checks on saving)
    form.querySelectorAll("[data-testid=declarer] label.out").forEach((label) => {
      label.classList.remove("out");
      const input = label.querySelector("input");
      if (input) input.disabled = false;
    });
    const preview = form.querySelector("#preview");
    if (preview) preview.replaceChildren();
  }

  // the line under the form's heading: what was sent again, or what was refused then
  function note(text, refused) {
    const saved = document.getElementById("saved");
    if (!saved) return;
    saved.textContent = text;
    saved.classList.toggle("error", refused);
  }

  // the alert while deals wait on this phone (drawn again after the form is swapped)
  function render() {
    const form = document.getElementById("entry"), waiting = queued(sheetName()).length;
    let box = document.getElementById("unsent");
    if (!waiting || !form) {
      if (box) box.remove();
      return;
    }
    if (!box) {
      box = document.createElement("p");
      box.id = "unsent";
      box.className = "error unsent";
      box.setAttribute("role", "alert");
      box.dataset.testid = "unsent";
      const saved = document.getElementById("saved");
      if (saved) {
        saved.after(box);
        if (!saved.classList.contains("error")) saved.textContent = "";  // no "deal 18 saved" above a failure
      } else form.prepend(box);
    }
    let text = problem === "server" ? say.server : say.failed;
    if (waiting > 1) text += " · " + (say.waiting || "").replace("{n}", String(waiting));
    box.textContent = text;
  }

  function alertOnly(form, text) {  // nothing kept: say so where the count is
    const preview = form.querySelector("#preview");
    if (!preview) return;
    const p = document.createElement("p");
    p.className = "error";
    p.setAttribute("role", "alert");
    p.textContent = text;
    preview.replaceChildren(p);
  }

  function failed(form, kind) {
    problem = kind;
    if (isSave(form) && keep(form)) {
      fresh(form);
      render();
    } else alertOnly(form, isSave(form) ? say.lost : say.correction);
  }

  function refreshList(sheet) {
    if (document.getElementById("sheet") && window.htmx) {
      window.htmx.ajax("GET", "/s/" + encodeURIComponent(sheet) + "/body", {target: "#sheet", swap: "outerHTML"});
    }
  }

  // send the kept deals in the order they were entered; stop at the first that still cannot reach the server
  async function flush() {
    const sheet = sheetName(), store = storage();
    if (sending || !sheet || !store) return;
    const items = queued(sheet);
    if (!items.length) return render();
    sending = true;
    let sent = 0, reached = true;
    try {
      for (const item of items) {
        if (store.getItem(item.key) === null) continue;  // (sent by another tab meanwhile)
        const body = new URLSearchParams(item.body), token = document.querySelector("input[name=csrf]");
        if (token) body.set("csrf", token.value);  // this page's token: the browser may have been restarted since
        let response;
        try {
          response = await fetch(item.url, {method: "POST", body, credentials: "same-origin",
                                            headers: {"HX-Request": "true", "X-CSRF-Token": body.get("csrf") || ""}});
        } catch (e) {
          problem = "failed";
          reached = false;
          return;
        }
        if (response.status >= 500) {
          problem = "server";
          reached = false;
          return;
        }
        const text = await response.text();
        store.removeItem(item.key);
        sent++;
        const doc = new DOMParser().parseFromString(text, "text/html");  // read as text only, never inserted
        if (response.ok) {
          const line = doc.getElementById("saved");
          note((say.resent || "").replace("{saved}", line ? line.textContent.trim() : ""), false);
        } else {
          note((say.refused || "").replace("{reason}", doc.body.textContent.trim().slice(0, 300)), true);
        }
      }
    } finally {
      sending = false;
      render();
      if (sent) refreshList(sheet);
      if (reached && queued(sheet).length) setTimeout(flush, 0);  // kept while these were sent
    }
  }

  document.addEventListener("htmx:sendError", (e) => { if (isForm(e.detail.elt)) failed(e.detail.elt, "failed"); });
  document.addEventListener("htmx:timeout", (e) => { if (isForm(e.detail.elt)) failed(e.detail.elt, "failed"); });
  document.addEventListener("htmx:responseError", (e) => {
    if (isForm(e.detail.elt) && e.detail.xhr && e.detail.xhr.status >= 500) failed(e.detail.elt, "server");
  });
  // while deals wait, a new one waits behind them: the sheet gets them in the order they were played
  document.addEventListener("htmx:beforeRequest", (e) => {
    const form = e.detail.elt;
    if (!isSave(form) || !(sending || queued(form.dataset.sheet).length)) return;
    e.preventDefault();
    if (keep(form)) fresh(form);
    render();
    flush();
  });
  document.addEventListener("htmx:afterSwap", render);
  window.addEventListener("online", flush);
  setInterval(() => { if (queued(sheetName()).length) flush(); }, RETRY_MS);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", flush);
  else flush();
})();
