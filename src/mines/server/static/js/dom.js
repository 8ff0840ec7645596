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
