import { toast } from 'sonner'

/**
 * Copies text and says how it went: `copied` as a success toast, or `failed` (with `detail`) as an error toast when the
 * browser refuses or has no clipboard (a page over plain http has none) — the text stays on screen to copy by hand.
 */
export async function copyText(text: string, copied: string, failed: string, detail?: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text) // no clipboard: a TypeError, caught
    toast.success(copied)
  } catch {
    toast.error(failed, detail ? { description: detail } : undefined)
  }
}
