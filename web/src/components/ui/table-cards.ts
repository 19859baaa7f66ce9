/**
 * Classes that make a table one card per row below sm (640 px) and leave it
 * a table from sm up. The markup stays one table — the same rows, cells and
 * names for screen readers and tests at every width, nothing rendered twice —
 * and CSS alone changes its shape: on a phone the header row hides, each row
 * is a card, the first cell its title, every other cell a line with its
 * column's name (its `data-label`, drawn by CSS so it is not text twice), and
 * the actions a row of buttons that say what they do (their `data-label`).
 */
export const tableCards = {
  /** The Card around the table: no frame of its own on phones, where each row is one. */
  frame: 'max-sm:overflow-visible max-sm:border-0 max-sm:bg-transparent max-sm:shadow-none dark:max-sm:bg-transparent',
  table: 'block w-full text-sm sm:table',
  head: 'hidden sm:table-header-group',
  body: 'grid gap-3 sm:table-row-group',
  row:
    'grid gap-2 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900 ' +
    'sm:table-row sm:rounded-none sm:border-0 sm:border-b sm:border-stone-100 sm:bg-transparent sm:p-0 sm:shadow-none sm:last:border-0 dark:sm:border-stone-800 dark:sm:bg-transparent',
  /** The cell that names the row: the card's title on phones. */
  title: 'block text-base font-semibold sm:table-cell sm:p-4 sm:text-sm sm:font-medium',
  /** Any other cell: give it data-label="column name". */
  cell:
    'flex items-start justify-between gap-3 text-right sm:table-cell sm:p-4 sm:text-left ' +
    'max-sm:before:shrink-0 max-sm:before:text-left max-sm:before:font-normal max-sm:before:text-stone-500 max-sm:before:content-[attr(data-label)] dark:max-sm:before:text-stone-400',
  /** The actions' cell: buttons in a row under the details on phones. */
  actions: 'flex flex-wrap gap-2 border-t border-stone-100 pt-3 sm:table-cell sm:border-0 sm:p-4 dark:border-stone-800',
  /** An icon button that shows its data-label beside the icon on phones. */
  action: 'max-sm:w-auto max-sm:px-3 max-sm:after:content-[attr(data-label)]',
}
