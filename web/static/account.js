// The header's account box on every page: "Sign in" (a dialog: name, password, sign in or register)
// or the signed-in name with links to the player's games and "Sign out". The session is an HttpOnly
// cookie the page never sees; GET /api/account says who is signed in. Other scripts read
// window.jzAccount ({name} or null) and listen for the "jz-account" event on window.
"use strict";
(function () {
  window.jzAccount = null;
  let available = true;  // false on a server that keeps no players

  function node(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  async function call(method, path, body) {
    const r = await fetch(path, { method, headers: body ? { "Content-Type": "application/json" } : {},
                                  body: body ? JSON.stringify(body) : undefined, credentials: "same-origin" });
    let j = {};
    try { j = await r.json(); } catch (e) { /* an empty answer */ }
    return { status: r.status, body: j };
  }

  function changed() { render(); window.dispatchEvent(new Event("jz-account")); }

  function render() {
    const box = document.getElementById("account");
    if (!box) return;
    box.textContent = "";
    if (!available) return;
    if (window.jzAccount) {
      const me = window.jzAccount.name;
      box.appendChild(node("span", { id: "account-name", class: "who" }, me));
      box.appendChild(document.createTextNode(" · "));
      box.appendChild(node("a", { href: "/history.html?player=" + encodeURIComponent(me), id: "history-link" }, t("account.history")));
      box.appendChild(document.createTextNode(" · "));
      const out = node("button", { type: "button", id: "sign-out", class: "link" }, t("account.sign_out"));
      out.onclick = async () => { await call("POST", "/api/account/logout"); window.jzAccount = null; changed(); };
      box.appendChild(out);
    } else {
      const open = node("button", { type: "button", id: "sign-in", class: "link" }, t("account.sign_in"));
      open.onclick = showDialog;
      box.appendChild(open);
    }
  }

  // Server errors in the page's words (the server's text otherwise).
  function errorText(status, body) {
    if (status === 401) return /register/.test(body.error || "") ? t("account.unclaimed") : t("account.wrong");
    if (status === 409) return t("account.taken");
    if (status === 429) return t("account.limited");
    if (status === 503) return t("account.busy");
    if (status === 400) return /password/.test(body.error || "") ? t("account.password_rule") : t("account.name_rule");
    return body.error || String(status);
  }

  function showDialog() {
    let dlg = document.getElementById("account-dialog");
    if (dlg) dlg.remove();
    dlg = node("dialog", { id: "account-dialog" });
    const form = node("form", { method: "dialog" });
    form.appendChild(node("h2", {}, t("account.heading")));
    const name = node("input", { id: "account-user", maxlength: "20", autocomplete: "username", required: "" });
    const pass = node("input", { id: "account-password", type: "password", maxlength: "256", autocomplete: "current-password",
                                 required: "" });
    for (const [label, input] of [[t("account.name"), name], [t("account.password"), pass]]) {
      const l = node("label", {}, label + " ");
      l.appendChild(input);
      form.appendChild(l);
    }
    form.appendChild(node("p", { class: "note" }, t("account.rules")));
    const msg = node("p", { id: "account-error", class: "error", role: "alert" });
    form.appendChild(msg);
    const buttons = node("div", { class: "buttons" });
    const signIn = node("button", { type: "submit", id: "account-login", class: "primary" }, t("account.sign_in"));
    const register = node("button", { type: "button", id: "account-register" }, t("account.register"));
    const cancel = node("button", { type: "button", id: "account-cancel" }, t("account.cancel"));
    buttons.append(signIn, register, cancel);
    form.appendChild(buttons);
    dlg.appendChild(form);
    document.body.appendChild(dlg);
    async function submit(path) {
      msg.textContent = "";
      const r = await call("POST", path, { name: name.value.trim(), password: pass.value });
      if (r.status !== 200) {
        msg.textContent = errorText(r.status, r.body);
        return;
      }
      window.jzAccount = { name: r.body.name };
      dlg.close();
      dlg.remove();
      changed();
    }
    form.onsubmit = (ev) => { ev.preventDefault(); submit("/api/account/login"); };
    register.onclick = () => { if (form.reportValidity()) submit("/api/account/register"); };
    cancel.onclick = () => { dlg.close(); dlg.remove(); };
    dlg.showModal();
    name.focus();
  }

  async function load() {
    const r = await call("GET", "/api/account").catch(() => ({ status: 0, body: {} }));
    available = r.status === 200;
    window.jzAccount = r.status === 200 && r.body.signed_in ? { name: r.body.name } : null;
    changed();
  }

  window.jzAccountReady = load();
  if (window.I18N) I18N.onChange(render);
})();
