import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { clsx, type ClassValue } from 'clsx'
import { afterEach, expect, vi } from 'vitest'

// jsdom's <dialog> has no showModal() or close(): open and close it as a browser does (ConfirmDialog uses them).
HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
  this.open = true
}
HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
  this.open = false
  this.dispatchEvent(new Event('close'))
}

afterEach(() => {
  cleanup()
  localStorage.clear()
  document.documentElement.classList.remove('dark')
})

// The public pages' light build joins classes with clsx alone (src/agende/utils.ts):
// while a public page's test runs, every cn whose classes tailwind-merge would
// change fails it — a class of one kind given twice, which only the merge settles.
const merges: string[] = []
vi.mock('@/lib/utils', async (original) => {
  const { cn } = await original<typeof import('@/lib/utils')>()
  return {
    cn: (...inputs: ClassValue[]) => {
      const merged = cn(...inputs)
      const joined = new Set(clsx(inputs).split(/\s+/).filter(Boolean))
      if (joined.size !== merged.split(' ').filter(Boolean).length) merges.push(`"${[...joined].join(' ')}" → "${merged}"`)
      return merged
    },
  }
})
const publicPages = /src\/(features\/booking|features\/public|agende)\//
afterEach(() => {
  const found = merges.splice(0)
  if (publicPages.test(expect.getState().testPath ?? '')) expect(found, 'classes the light build could not merge').toEqual([])
})
