import { useMutation } from '@tanstack/react-query'
import { ApiError, request, type Schemas } from '@/lib/api/client'
import { keyBytes, sameKey } from '@/lib/push'

export const getPushKey = () => request('get', '/api/public/push/key')
export const subscribePush = (token: string, body: Schemas['PushSubscription']) =>
  request('post', '/api/public/bookings/{token}/push', { path: { token }, body })
export const unsubscribePush = (token: string, endpoint: string) =>
  request('post', '/api/public/bookings/{token}/push/remove', { path: { token }, body: { endpoint } })

/** Why turning push on stopped before the server: the browser's answer, in the page's words. */
export class PushRefused extends Error {
  constructor(readonly reason: 'denied' | 'failed') {
    super(reason === 'denied' ? 'As notificações estão bloqueadas neste navegador.' : 'Este navegador não conseguiu ativar as notificações.')
  }
}

/** Where the page remembers that this browser gets this booking's reminders. */
export const pushMark = (token: string) => `agendei:push:${token}`

/**
 * This browser's subscription, made when missing (or made with an older
 * server key): the permission, the service worker, the Push API. A tap of
 * the button is the only caller, as browsers ask.
 */
async function browserSubscription(): Promise<PushSubscription> {
  if ((await Notification.requestPermission()) !== 'granted') throw new PushRefused('denied')
  try {
    await navigator.serviceWorker.register('/sw.js')
    const reg = await navigator.serviceWorker.ready
    const key = keyBytes((await getPushKey()).publicKey)
    let sub = await reg.pushManager.getSubscription()
    if (sub && !sameKey(sub, key)) {
      await sub.unsubscribe()
      sub = null
    }
    return sub ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }))
  } catch (err) {
    if (err instanceof ApiError) throw err
    throw new PushRefused('failed')
  }
}

/** 'Receber lembretes neste celular': subscribes this browser and gives it to the booking's client. */
export function useSubscribePush(token: string) {
  return useMutation({
    mutationFn: async () => {
      const sub = (await browserSubscription()).toJSON()
      await subscribePush(token, { endpoint: sub.endpoint ?? '', keys: { p256dh: sub.keys?.p256dh ?? '', auth: sub.keys?.auth ?? '' } })
      localStorage.setItem(pushMark(token), '1')
    },
  })
}

/** 'Parar os lembretes neste celular': this booking's client no longer gets this browser's notifications. */
export function useUnsubscribePush(token: string) {
  return useMutation({
    mutationFn: async () => {
      const reg = await navigator.serviceWorker.getRegistration()
      const sub = await reg?.pushManager.getSubscription()
      if (sub) await unsubscribePush(token, sub.endpoint)
      localStorage.removeItem(pushMark(token))
    },
  })
}
