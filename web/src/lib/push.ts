/**
 * What this browser can do about web push (issue 41 §4): subscribe here,
 * only after being added to the home screen (iPhone and iPad outside an
 * installed app: Safari offers push to installed web apps only, iOS 16.4+),
 * or nothing at all.
 */
export type PushSupport = 'yes' | 'install' | 'no'

/** An iPhone or iPad (iPadOS says it is a Mac, with a touch screen). */
function isIOS(nav: Navigator): boolean {
  return /iPad|iPhone|iPod/.test(nav.userAgent) || (nav.platform === 'MacIntel' && nav.maxTouchPoints > 1)
}

/** Whether the page runs as an app added to the home screen. */
function installed(win: Window): boolean {
  return (win.navigator as Navigator & { standalone?: boolean }).standalone === true || win.matchMedia?.('(display-mode: standalone)').matches === true
}

export function pushSupport(win: Window = window): PushSupport {
  const nav = win.navigator
  if ('serviceWorker' in nav && 'PushManager' in win && 'Notification' in win) return 'yes'
  return isIOS(nav) && !installed(win) ? 'install' : 'no'
}

/** The VAPID public key (base64url) as PushManager.subscribe takes it. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4)
  const raw = atob(b64)
  const out = new Uint8Array(new ArrayBuffer(raw.length))
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i)
  return out
}

/** Whether a subscription was made with this server key (a new key needs a new subscription). */
export function sameKey(sub: PushSubscription, key: Uint8Array): boolean {
  const had = sub.options?.applicationServerKey
  if (!had) return true
  const a = new Uint8Array(had)
  return a.length === key.length && a.every((v, i) => v === key[i])
}
