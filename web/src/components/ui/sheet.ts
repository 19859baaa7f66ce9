/**
 * Where every dialog sits (the Radix dialogs and the confirmation alike).
 * On phones, a bottom sheet: full width, at most 90 % of the visible height,
 * its content scrolling inside, so nothing is ever off the screen's sides. From
 * `sm` up, a card centred on the screen. (`top-auto`, `m-0` and `max-w-full`
 * undo the browser's own placement of a modal <dialog>.)
 */
export const sheetClass =
  'fixed inset-x-0 top-auto bottom-0 z-50 m-0 grid max-h-[90dvh] w-full max-w-full gap-4 overflow-y-auto overscroll-contain rounded-t-2xl border border-b-0 border-stone-200 bg-white p-5 text-stone-900 shadow-xl dark:border-stone-800 dark:bg-stone-900 dark:text-stone-100 ' +
  'sm:inset-x-auto sm:top-1/2 sm:bottom-auto sm:left-1/2 sm:max-h-[calc(100dvh-2rem)] sm:w-[calc(100%-2rem)] sm:max-w-md sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-2xl sm:border-b sm:p-6'

/**
 * A dialog's action bar. On phones it sticks to the bottom of the sheet, edge
 * to edge, while the content scrolls above it: the primary button is always a
 * thumb away. It must be the last thing in the sheet: its negative margins
 * and offset meet the sheet's padding (a sticky box keeps clear of its
 * scroller's padding unless told otherwise).
 */
export const sheetActionsClass =
  'flex flex-wrap justify-end gap-2 max-sm:sticky max-sm:-bottom-5 max-sm:z-10 max-sm:-mx-5 max-sm:-mb-5 max-sm:border-t max-sm:border-stone-200 max-sm:bg-white max-sm:px-5 max-sm:pt-3 max-sm:pb-[max(0.75rem,env(safe-area-inset-bottom))] max-sm:[&>*]:grow dark:max-sm:border-stone-800 dark:max-sm:bg-stone-900'
