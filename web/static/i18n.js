// The pages' words in three languages: one catalogue per language (i18n-en.js, i18n-zh-TW.js,
// i18n-ko.js, each `I18N.add(code, {key: text})`), English the fallback. Load this file first, then the
// catalogues, in <head>; then every script may call the global t(key, params).
//   t("status.to_move", {side: "Cho"}) -> the current language's text with {side} substituted.
// Elements carry keys instead of text: data-i18n (text), data-i18n-title, data-i18n-placeholder,
// data-i18n-aria-label; apply() fills them, and runs again on every language change.
// The language: ?lang=xx in the address, else the one chosen before (local storage "jz-lang"), else the
// browser's (navigator.languages: zh-TW, zh-Hant, zh-HK, any zh -> zh-TW; ko -> ko; else en). A <select>
// in the element #lang-switch (every page's header) changes it; the choice is remembered.
// A missing key logs a console error (the browser test fails on any) and shows the English text or the key.
"use strict";
(function () {
  const CODES = ["zh-TW", "ko", "en"];  // the switch's order
  const catalogues = {};
  const listeners = [];
  const reported = new Set();
  let lang = "en";

  function fromBrowser(list) {
    for (const l of list || []) {
      const s = String(l).toLowerCase();
      if (s.startsWith("zh")) return "zh-TW";
      if (s.startsWith("ko")) return "ko";
      if (s.startsWith("en")) return "en";
    }
    return "en";
  }
  function known(code) { return CODES.find((c) => c.toLowerCase() === String(code || "").toLowerCase()) || null; }
  function stored() { try { return known(localStorage.getItem("jz-lang")); } catch (e) { return null; } }
  function store(code) { try { localStorage.setItem("jz-lang", code); } catch (e) { /* private mode */ } }

  function choose() {
    const q = known(new URLSearchParams(location.search).get("lang"));
    if (q) { store(q); return q; }
    return stored() || fromBrowser(navigator.languages && navigator.languages.length ? navigator.languages
                                                                                       : [navigator.language]);
  }

  function lookup(key) {
    const cat = catalogues[lang] || {};
    if (Object.prototype.hasOwnProperty.call(cat, key)) return cat[key];
    if (!reported.has(lang + " " + key)) {
      reported.add(lang + " " + key);
      console.error(`i18n: no text for '${key}' in ${lang}`);
    }
    const en = catalogues.en || {};
    return Object.prototype.hasOwnProperty.call(en, key) ? en[key] : key;
  }

  // The text of key in the current language, {name} replaced by params.name (a missing one stays).
  function t(key, params) {
    const text = lookup(key);
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, (m, k) => (Object.prototype.hasOwnProperty.call(params, k) ? String(params[k]) : m));
  }

  const ATTRS = [["data-i18n-title", "title"], ["data-i18n-placeholder", "placeholder"], ["data-i18n-aria-label", "aria-label"]];
  function apply(root) {
    root = root || document;
    document.documentElement.lang = lang;
    for (const e of root.querySelectorAll("[data-i18n]")) e.textContent = t(e.getAttribute("data-i18n"));
    for (const [data, attr] of ATTRS)
      for (const e of root.querySelectorAll("[" + data + "]")) e.setAttribute(attr, t(e.getAttribute(data)));
    buildSwitch();
  }

  // The header's switch: each language named in its own catalogue ("lang.name").
  function buildSwitch() {
    const box = document.getElementById("lang-switch");
    if (!box) return;
    let sel = box.querySelector("select");
    if (!sel) {
      sel = document.createElement("select");
      sel.id = "lang";
      for (const c of CODES) {
        const o = document.createElement("option");
        o.value = c;
        o.textContent = (catalogues[c] || {})["lang.name"] || c;
        o.lang = c;
        sel.appendChild(o);
      }
      sel.addEventListener("change", () => setLang(sel.value));
      box.appendChild(sel);
    }
    sel.value = lang;
    sel.setAttribute("aria-label", t("lang.label"));
    sel.title = t("lang.label");
  }

  function setLang(code) {
    code = known(code);
    if (!code) return;
    store(code);
    const q = new URLSearchParams(location.search);
    if (q.has("lang")) {  // the stored choice rules from now on, also after a reload
      q.delete("lang");
      const s = q.toString();
      history.replaceState(history.state, "", location.pathname + (s ? "?" + s : "") + location.hash);
    }
    if (code === lang) return;
    lang = code;
    apply();
    for (const f of listeners) f(lang);
  }

  window.I18N = {
    add(code, catalogue) { catalogues[code] = Object.assign(catalogues[code] || {}, catalogue); },
    catalogues,
    codes: CODES,
    get lang() { return lang; },
    setLang,
    apply,
    fromBrowser,
    onChange(f) { listeners.push(f); },  // f(lang) after the page's static text changed
  };
  window.t = t;
  lang = choose();
  document.documentElement.lang = lang;
  document.addEventListener("DOMContentLoaded", () => apply());
})();
