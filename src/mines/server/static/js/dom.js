// Finding the page's elements by ID, for the pages' scripts: a missing one is a bug, said at once.

/** @param {string} id */
export function $(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element;
}

/** @param {string} id */
export const inputOf = (id) => /** @type {HTMLInputElement} */ ($(id));

/** @param {string} id */
export const selectOf = (id) => /** @type {HTMLSelectElement} */ ($(id));

/**
 * Fill a description list with a term and its value per row, in order.
 * @param {HTMLElement} list
 * @param {string[][]} rows
 */
export function fillTerms(list, rows) {
  list.replaceChildren();
  for (const [name, value] of rows) {
    const term = document.createElement("dt");
    term.textContent = name;
    const detail = document.createElement("dd");
    detail.textContent = value;
    list.append(term, detail);
  }
}
