// The LED counters: three seven-segment digits, with the value also told to screen readers.

const SEGMENTS = ["a", "b", "c", "d", "e", "f", "g"];

/**
 * Build the digits of an LED display once.
 * @param {HTMLElement} element
 * @param {number} digits
 */
export function buildLed(element, digits) {
  const parts = [];
  for (let i = 0; i < digits; i++) {
    const digit = document.createElement("span");
    digit.className = "digit d0";
    digit.setAttribute("aria-hidden", "true");
    for (const name of SEGMENTS) {
      const seg = document.createElement("span");
      seg.className = `seg ${name}`;
      digit.append(seg);
    }
    parts.push(digit);
  }
  element.replaceChildren(...parts);
}

/**
 * Show a value: three digits as in the classic game, more when the value needs them (a huge
 * board's mines, a long game's seconds), so a counter never stops at 999.
 * @param {HTMLElement} element
 * @param {number} value
 * @param {string} label  the words for screen readers, e.g. "Mines left: 10"
 */
export function setLed(element, value, label) {
  const needed = String(Math.abs(Math.trunc(value))).length + (value <= -1 ? 1 : 0);
  if (needed > element.children.length) buildLed(element, needed);
  const digits = element.children;
  const most = 10 ** digits.length - 1;
  const least = -(10 ** (digits.length - 1) - 1);
  const shown = Math.max(least, Math.min(most, Math.trunc(value)));
  const text = (shown < 0 ? "-" : "") + String(Math.abs(shown)).padStart(digits.length - (shown < 0 ? 1 : 0), "0");
  for (let i = 0; i < digits.length; i++) {
    const ch = text[i];
    const name = `digit d${ch === "-" ? "minus" : ch}`;
    if (digits[i].className !== name) digits[i].className = name;
  }
  element.dataset.value = String(shown);
  if (element.getAttribute("aria-label") !== label) element.setAttribute("aria-label", label);
}
