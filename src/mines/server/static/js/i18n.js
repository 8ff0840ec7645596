// The page's words in the reader's language: catalogues made from the .po files, Intl for plurals, numbers and dates.

/**
 * The languages the pages speak, named in themselves. Their catalogues (i18n/<tag>.json) are
 * made from src/mines/translations/<lang>/LC_MESSAGES/web.po by tools/catalogues.py; English
 * is the strings themselves.
 */
export const LANGUAGES = { en: "English", de: "Deutsch", es: "Español", "zh-Hans": "简体中文" };
const KEY = "mines:lang";
/** The attributes people read or hear; tools/catalogues.py extracts the same from the pages. */
const ATTRIBUTES = ["aria-label", "title", "placeholder", "alt"];

/**
 * @typedef {object} Catalogue
 * @property {string} language
 * @property {Record<string, number>} plural  the form (gettext's msgstr index) of each Intl plural category
 * @property {Record<string, string | string[]>} messages
 */

/** A language the pages speak for a BCP 47 tag, or null. @param {string} tag */
export function languageOf(tag) {
  const parts = tag.toLowerCase().split("-");
  if (parts[0] === "zh") {
    // Simplified characters: mainland China, Singapore, or said so; not Taiwan's or Hong Kong's.
    const rest = parts.slice(1);
    if (!rest.length || rest.includes("hans") || rest.includes("cn") || rest.includes("sg")) return "zh-Hans";
    return null;
  }
  return Object.hasOwn(LANGUAGES, parts[0]) ? parts[0] : null;
}

/** The player's choice if any, else the browser's first language the pages speak, else English. */
function choose() {
  let kept = null;
  try {
    kept = localStorage.getItem(KEY);
  } catch {
    // Storage refused (private mode): the browser's languages decide.
  }
  if (kept && Object.hasOwn(LANGUAGES, kept)) return kept;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const found = languageOf(tag);
    if (found) return found;
  }
  return "en";
}

/** @param {string} language @returns {Promise<Catalogue | null>} */
async function load(language) {
  if (language === "en") return null;
  try {
    const answer = await fetch(new URL(`../i18n/${language}.json`, import.meta.url));
    return answer.ok ? /** @type {Catalogue} */ (await answer.json()) : null;
  } catch {
    return null;  // offline and not cached: the page speaks English
  }
}

/** The language the page speaks (a key of LANGUAGES). */
export const language = choose();
const catalogue = await load(language);
/** The tag Intl and `<html lang>` take. */
const tag = catalogue ? language : "en";
const plurals = new Intl.PluralRules(tag);
const numbers = new Intl.NumberFormat(tag);

/** @param {string} text @param {Record<string, unknown>} [values] */
function fill(text, values) {
  if (!values) return text;
  return text.replace(/\{([a-z_]+)\}/g, (whole, name) => {
    const value = values[name];
    if (value === undefined) return whole;
    return typeof value === "number" ? numbers.format(value) : String(value);
  });
}

/**
 * A string in the page's language, `{name}` filled from `values` (numbers as the language
 * writes them). tools/catalogues.py finds every `t("...")` for the catalogues.
 * @param {string} text @param {Record<string, unknown>} [values]
 */
export function t(text, values) {
  return fill(lookup(text), values);
}

/** The page's translation of `text`, or `text`. @param {string} text */
function lookup(text) {
  const found = catalogue?.messages[text];
  return typeof found === "string" ? found : text;
}

/**
 * A count's phrase in the form the language's plural rule gives it (Intl.PluralRules):
 * `tn("{n} mine", "{n} mines", 3)`. `{n}` is the count; other names come from `values`.
 * @param {string} one @param {string} other @param {number} count @param {Record<string, unknown>} [values]
 */
export function tn(one, other, count, values) {
  const category = plurals.select(count);
  const forms = catalogue?.messages[one];
  let text;
  if (Array.isArray(forms)) text = forms[catalogue?.plural[category] ?? forms.length - 1] ?? other;
  else text = category === "one" ? one : other;
  return fill(text, { n: count, ...values });
}

/** A number as the language writes it. @param {number} value @param {Intl.NumberFormatOptions} [options] */
export function formatNumber(value, options) {
  return options ? new Intl.NumberFormat(tag, options).format(value) : numbers.format(value);
}

/** A sentence begun with a capital, as the language writes one ("row 2, ..." -> "Row 2, ..."). @param {string} text */
export function sentence(text) {
  return text.charAt(0).toLocaleUpperCase(tag) + text.slice(1);
}

/** A number with exactly `places` decimals, as the language writes it (12.30, 12,30). @param {number} value @param {number} places */
export function fixed(value, places) {
  return formatNumber(value, { minimumFractionDigits: places, maximumFractionDigits: places });
}

/** A date (and time) as the language writes it. @param {Date | number | string} when @param {Intl.DateTimeFormatOptions} [options] */
export function formatDate(when, options = { dateStyle: "medium" }) {
  return new Intl.DateTimeFormat(tag, options).format(new Date(when));
}

/** Translate the page's own text and labels in place (what the .html files say in English). @param {ParentNode} root */
export function translatePage(root) {
  if (!catalogue) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT, {
    acceptNode: (node) => {
      if (node instanceof Element && (node.closest("[translate=no], script, style"))) return NodeFilter.FILTER_REJECT;
      return NodeFilter.FILTER_ACCEPT;
    },
  });
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node instanceof Element) {
      for (const name of ATTRIBUTES) {
        const value = node.getAttribute(name);
        if (value) node.setAttribute(name, lookup(value.split(/\s+/).join(" ").trim()));
      }
      continue;
    }
    const text = node.nodeValue ?? "";
    const words = text.split(/\s+/).join(" ").trim();
    if (!words) continue;
    const said = lookup(words);
    if (said !== words) node.nodeValue = text.replace(/\S[\s\S]*\S|\S/, said);
  }
}

/** The language picker (a select with id "lang", its options in the page): a choice is remembered and applied. */
function bindPicker() {
  const picker = /** @type {HTMLSelectElement | null} */ (document.getElementById("lang"));
  if (!picker) return;
  picker.value = language;
  picker.addEventListener("change", () => {
    try {
      localStorage.setItem(KEY, picker.value);
    } catch {
      // Storage refused: the choice holds for this page only.
    }
    location.reload();
  });
}

document.documentElement.lang = tag;
translatePage(document.body);
const description = document.querySelector('meta[name="description"]');
if (description) description.setAttribute("content", lookup(description.getAttribute("content") ?? ""));
document.title = lookup(document.title);
bindPicker();
